import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { OPENAPI_SHA256 } from '../../clients/typescript/src/generated-from.ts';

// The TypeScript client (clients/typescript) is generated from docs/openapi.json: its types must
// be those of the committed document, or a client compiles against an API that is not there.
it('the TypeScript client was generated from the committed docs/openapi.json', async () => {
  const document = await readFile(new URL('../../docs/openapi.json', import.meta.url));
  const sha256 = createHash('sha256').update(document).digest('hex');
  expect(sha256, 'docs/openapi.json changed: run `npm run openapi` (or `npm run client`) and commit clients/').toBe(
    OPENAPI_SHA256,
  );
});
