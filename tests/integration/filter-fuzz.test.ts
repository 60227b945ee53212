// Hostile input (issue 3, item 12): random and malicious filter strings against the data API of
// every section. Whatever arrives, the answer is never a 5xx, and a 4xx names the parameter.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sectionParameters } from '../../core/search/parameters.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Requests per section: 22 sections × 480 = 10,560 hostile requests in all. */
const RUNS_PER_SECTION = 480;

const HOSTILE_VALUES = [
  "'; drop table legal_entities; --",
  "1' or '1'='1",
  '1) or (1=1',
  '$1',
  '\\x00',
  '%00',
  '1;select pg_sleep(10)',
  '99999999999999999999999999999999',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x7fffffff',
  '2020-13-45',
  '2020-02-30',
  '0000-00-00',
  '99999-01-01',
  '2020/01/01',
  '١٢٣',
  '𝟙𝟚𝟛',
  'Zürich',
  '東京',
  '🦄|🐉',
  '\u202e',
  '|',
  ',',
  '||||',
  'a|',
  '[]',
  ':from',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'true',
  'false',
  '',
];

const API_NAMES = new Map(SECTIONS.map((s) => [s.id, s.record ? (s.record.api ?? s.record.table) : 'legal_entities']));

describe('hostile filter strings', () => {
  for (const section of SECTIONS) {
    it(`${section.id}: ${RUNS_PER_SECTION} random requests, no 5xx, every 4xx names a parameter`, async () => {
      const known = sectionParameters(section, t.reference).map((p) => p.name);
      const name = fc.oneof(
        fc.constantFrom(...known),
        fc.constantFrom(...known).map((n) => `${n}]`),
        fc.constantFrom(...known).map((n) => n.replace(/\[[^\]]*\]/, '[nope]')),
        fc.constantFrom('sort', 'page', 'after', 'count', 'q', 'id', 'le_le_id'),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.stringMatching(/^[a-z_]{1,12}(\[[a-z_]{1,8}\]){0,3}(:(from|to|is_known|is_unknown|x))?$/),
      );
      const value = fc.oneof(
        fc.constantFrom(...HOSTILE_VALUES),
        fc.string({ maxLength: 300, unit: 'grapheme' }),
        fc.string({ minLength: 10_240, maxLength: 10_300 }),
        fc.bigInt().map(String),
        fc.double().map(String),
        fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid' : d.toISOString())),
        fc.array(fc.constantFrom(...HOSTILE_VALUES), { maxLength: 5 }).map((v) => v.join('|')),
      );
      const query = fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 4 });
      await fc.assert(
        fc.asyncProperty(query, async (pairs) => {
          const url = `/api/site/data/v1/${API_NAMES.get(section.id)}?${new URLSearchParams(pairs).toString()}`;
          const response = await t.app.inject({ method: 'GET', url });
          if (response.statusCode >= 500)
            throw new Error(`${response.statusCode} for ${url}: ${response.body.slice(0, 300)}`);
          if (response.statusCode !== 200) {
            expect(response.statusCode).toBe(400);
            const body = response.json();
            expect(body.error.code).toBe('bad_request');
            expect(body.error.message.length).toBeGreaterThan(0);
            expect(typeof body.error.details?.parameter).toBe('string');
          }
        }),
        { numRuns: RUNS_PER_SECTION, seed: 20261122 },
      );
    }, 120_000);
  }
});
