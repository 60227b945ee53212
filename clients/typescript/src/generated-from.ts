// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = 'ad96092280ed9193a333633bf6bea9f069389f99d31295bc25b1c6f51814ce87';
