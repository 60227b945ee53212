// The names of the sources `npm run cli -- import` knows (IMPORT_SOURCES in index.ts, in its order),
// in a module of their own: the command's help lists them without loading the importers
// (tests/unit/import-source-names.test.ts keeps the two alike).

export const IMPORT_SOURCE_NAMES = [
  'gleif-lei',
  'gleif-rr',
  'gleif-repex',
  'elf',
  'ch-companies',
  'ch-psc',
  'sec-submissions',
  'brreg-units',
  'brreg-roles',
  'ch-accounts',
  'sec-ixbrl',
  'bods',
] as const;
