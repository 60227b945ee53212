// One batch of demo data: the companies first..last with their related rows and records, and the
// persons they introduce into the member pool, as CSV per table. Pure and synchronous: the seed
// runs it in a worker thread (batch-worker.ts), tests and benchmarks call it directly.

import { makeCompany, makePerson } from './company-factory.ts';
import { appendCompany, appendMember, appendRecords, type CsvBatch, emptyBatch } from './copy-rows.ts';
import { type PersonPool, personPoolSize } from './member-pool.ts';
import { makeRecords } from './record-factory.ts';
import type { SeedCatalog } from './seed-catalog.ts';

export function generateBatch(
  catalog: SeedCatalog,
  pool: PersonPool,
  seed: number,
  first: number,
  last: number,
): CsvBatch {
  const batch = emptyBatch();
  for (let id = first; id <= last; id++) {
    const company = makeCompany(catalog, pool, seed, id);
    appendCompany(batch, company);
    appendRecords(batch, makeRecords(catalog, pool, seed, company));
  }
  for (let person = personPoolSize(first - 1) + 1; person <= personPoolSize(last); person++) {
    appendMember(batch, makePerson(catalog, pool, seed, person));
  }
  return batch;
}
