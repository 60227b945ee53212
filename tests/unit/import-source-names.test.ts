import { expect, it } from 'vitest';
import { IMPORT_SOURCES } from '../../core/imports/sources/index.ts';
import { IMPORT_SOURCE_NAMES } from '../../core/imports/sources/source-names.ts';

// The command line lists and checks the import sources by their names without loading the
// importers (cli/import.ts): the names must be the sources', in the same order.

it('names every import source, in the order of IMPORT_SOURCES', () => {
  expect(IMPORT_SOURCE_NAMES).toEqual(Object.keys(IMPORT_SOURCES));
});
