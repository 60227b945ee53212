// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = 'e3b21ae96df8aceddab14e98e4b1e00525b48b7a3fa334ee48adeecc74e137bb';
