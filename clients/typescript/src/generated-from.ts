// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = '725fb6abc281bc5b054e1a3baf21b311e2bf963e21bf3e63869df4556a526276';
