// Written by `npm run generate` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.
export const OPENAPI_SHA256 = '6c519cce938fa585a529ef024dfeaa170a7dc8a8341ec320f313be56d5d36b37';
