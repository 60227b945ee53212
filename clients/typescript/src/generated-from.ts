// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = 'cae2a1fa0f9e4ba84b1bdb01c7e26c5c8af41ce0fd398017c860a12a30fac0ad';
