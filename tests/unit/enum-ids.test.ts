import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DECLARED_LISTS } from '../../core/reference/declared-lists.ts';
import { SECTIONS } from '../../core/sections/sections.ts';

// Rows store an enum value's id, and the reference lists of the API publish them (a client keeps
// them). The ids pinned here were given once and never change: a value added to a declaration takes
// a new id and is added to tests/fixtures/enum-ids.json.

const PINNED = JSON.parse(readFileSync(new URL('../fixtures/enum-ids.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, number>
>;

const declared = new Map<string, Map<string, number>>(
  SECTIONS.flatMap((s) =>
    (s.record?.fields ?? [])
      .filter((f) => f.type === 'enum')
      .map((f) => [`${s.id}.${f.key}`, new Map(f.values!.map((v) => [v.uri, v.id]))] as const),
  ),
);
for (const list of DECLARED_LISTS) declared.set(`api${list.url}`, new Map(list.values.map((v) => [v.uri, v.id])));

describe('enum value ids', () => {
  it('keep every id they were given', () => {
    for (const [field, values] of Object.entries(PINNED)) {
      for (const [uri, id] of Object.entries(values)) {
        expect(declared.get(field)?.get(uri), `${field} ${uri}`).toBe(id);
      }
    }
  });

  it('are all pinned, and a new value never reuses an id that another value had', () => {
    for (const [field, values] of declared) {
      const pinned = PINNED[field] ?? {};
      const taken = new Map(Object.entries(pinned).map(([uri, id]) => [id, uri]));
      for (const [uri, id] of values) {
        expect(pinned[uri], `${field} ${uri} (id ${id}) is not in tests/fixtures/enum-ids.json`).toBe(id);
        expect(taken.get(id), `${field}: id ${id}`).toBe(uri);
      }
    }
  });
});
