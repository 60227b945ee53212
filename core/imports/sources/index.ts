import type { ImportSource } from '../company-facts.ts';
import { chAccountsSource, secIxbrlSource } from './accounts/accounts-sources.ts';
import { bodsSource } from './bods/bods-source.ts';
import { brregRolesSource, brregUnitsSource } from './brreg/brreg-sources.ts';
import { chCompaniesSource } from './companies-house/ch-companies-source.ts';
import { chPscSource } from './companies-house/ch-psc-source.ts';
import { elf } from './elf.ts';
import { gleifLei } from './gleif-lei.ts';
import { gleifRepex } from './gleif-repex.ts';
import { gleifRr } from './gleif-rr.ts';
import { secSubmissionsSource } from './sec/sec-submissions-source.ts';

/**
 * Every source `npm run cli -- import <source>` knows, by name (docs/decisions/0014-importers.md;
 * the national registers: docs/decisions/0016-national-registers.md; filed accounts:
 * docs/decisions/0037-inline-xbrl-accounts.md; BODS statements: docs/decisions/0038-ownership-graph.md).
 */
export const IMPORT_SOURCES: Record<string, ImportSource> = Object.fromEntries(
  [
    gleifLei,
    gleifRr,
    gleifRepex,
    elf,
    chCompaniesSource,
    chPscSource,
    secSubmissionsSource,
    brregUnitsSource,
    brregRolesSource,
    chAccountsSource,
    secIxbrlSource,
    bodsSource,
  ].map((s) => [s.name, s]),
);
