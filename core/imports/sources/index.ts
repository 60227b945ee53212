import type { ImportSource } from '../company-facts.ts';
import { elf } from './elf.ts';
import { gleifLei } from './gleif-lei.ts';
import { gleifRepex } from './gleif-repex.ts';
import { gleifRr } from './gleif-rr.ts';

/** Every source `npm run cli -- import <source>` knows, by name (docs/decisions/0014-importers.md). */
export const IMPORT_SOURCES: Record<string, ImportSource> = Object.fromEntries(
  [gleifLei, gleifRr, gleifRepex, elf].map((s) => [s.name, s]),
);
