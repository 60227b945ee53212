import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

// Records which docs/openapi.json src/schema.ts was generated from: a test of the app
// (tests/unit/api-client-fresh.test.ts) fails when the document changed and the client did not.
const document = readFileSync(new URL('../../docs/openapi.json', import.meta.url));
const sha256 = createHash('sha256').update(document).digest('hex');
writeFileSync(
  new URL('src/generated-from.ts', import.meta.url),
  `// Written by \`npm run generate\` (stamp.mjs): the SHA-256 of the docs/openapi.json src/schema.ts was generated from.\nexport const OPENAPI_SHA256 = '${sha256}';\n`,
);
