// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = '11e861d38929d1217f51481dfcf2bb979cd44d8ad58fea92b8051b57f0c169b3';
