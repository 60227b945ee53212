import type { ImportSource } from '../core/imports/company-facts.ts';
import { brregRolesSource, brregUnitsSource } from './brreg/brreg-sources.ts';
import { chCompaniesSource } from './companies-house/ch-companies-source.ts';
import { chPscSource } from './companies-house/ch-psc-source.ts';
import { secSubmissionsSource } from './sec/sec-submissions-source.ts';

// The national registers' import sources (docs/decisions/0016-national-registers.md).
export const NATIONAL_REGISTER_SOURCES: ImportSource[] = [
  chCompaniesSource,
  chPscSource,
  secSubmissionsSource,
  brregUnitsSource,
  brregRolesSource,
];
