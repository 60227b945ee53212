import { createReadStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CompanyFacts, companyFactsSchema, type ImportItem } from '../../core/imports/company-facts.ts';
import { chCompaniesSource } from '../../core/imports/sources/companies-house/ch-companies-source.ts';
import { writeCompaniesHouseFile } from '../../db/seed/companies-house-file.ts';

// The benchmark's Companies House file from the demo generator reads like the real one, and its
// update variant differs exactly where it says.

async function factsOf(path: string): Promise<{ facts: CompanyFacts[]; rejects: ImportItem[] }> {
  const facts: CompanyFacts[] = [];
  const rejects: ImportItem[] = [];
  for await (const item of chCompaniesSource.read(createReadStream(path), { name: path })) {
    if (item.kind === 'company') {
      expect(companyFactsSchema.safeParse(item.facts).error).toBeUndefined();
      facts.push(item.facts);
    } else rejects.push(item);
  }
  return { facts, rejects };
}

describe('the demo Companies House file', () => {
  it('is read by ch-companies without a reject; the update file changes every n-th company', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ch-file-'));
    await writeCompaniesHouseFile({ rows: 300, out: join(dir, 'a.csv') });
    await writeCompaniesHouseFile({ rows: 300, out: join(dir, 'b.csv'), changedEvery: 100 });
    const first = await factsOf(join(dir, 'a.csv'));
    const update = await factsOf(join(dir, 'b.csv'));
    expect(first.rejects).toEqual([]);
    expect(first.facts).toHaveLength(300);
    expect(new Set(first.facts.map((f) => f.keys.register?.number)).size).toBe(300);
    const differing = first.facts.flatMap((facts, i) => {
      const other = update.facts[i];
      const fields = Object.keys(facts).filter(
        (key) => JSON.stringify(facts[key as keyof CompanyFacts]) !== JSON.stringify(other[key as keyof CompanyFacts]),
      );
      return fields.length > 0 ? [[facts.keys.register?.number, fields]] : [];
    });
    expect(differing).toEqual([
      ['00000100', ['addresses', 'dates']],
      ['00000200', ['addresses', 'dates']],
      ['00000300', ['addresses', 'dates']],
    ]);
  });
});
