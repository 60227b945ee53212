// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = 'f0ddf882cd284092cd3fb8b1d0817131187021af0d28933218ae8d7fe10be98b';
