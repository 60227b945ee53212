// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = '33b7d6f01a9638bb58f7226b91d1c03fbe8645654f81826db3dcf8137dd84aa1';
