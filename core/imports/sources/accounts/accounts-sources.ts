import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { normalise } from '../../../ixbrl/normalise.ts';
import { parseInlineXbrl } from '../../../ixbrl/parse.ts';
import type { Filing } from '../../../ixbrl/types.ts';
import type { ImportItem, ImportSource } from '../../company-facts.ts';

// Filed accounts in inline XBRL (docs/decisions/0037-inline-xbrl-accounts.md "Import and product"):
// Companies House accounts (`ch-accounts`, the Accounts Data Product's daily and monthly zips of one
// XHTML file per filing) and SEC EDGAR 10-K/10-Q documents (`sec-ixbrl`). The framework
// (run-import.ts) opens files, directories and zips entry by entry; each entry is one filing, read
// whole (a filing is a few MB; memory holds one batch of them), parsed, hashed and its figures
// derived. A file that is no filing is a reject naming it, and the import goes on.

/** A filing larger than this is refused (the largest real ones are some 30 MB). */
export const FILING_MAX_BYTES = 64 * 1024 * 1024;

/** Filings per transaction batch: each holds its facts in memory until written. */
const FILINGS_PER_BATCH = 25;

const DOCUMENT = /\.(x?html?|xml)$/i;

/** The entry read whole, or null when it is larger than FILING_MAX_BYTES (read to its end all the same). */
async function readWhole(input: Readable): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    size += (chunk as Buffer).length;
    if (size <= FILING_MAX_BYTES) chunks.push(chunk as Buffer);
  }
  return size > FILING_MAX_BYTES ? null : Buffer.concat(chunks);
}

function accountsSource(kind: Filing['kind'], expects: string): ImportSource {
  return {
    name: kind,
    expects,
    unit: 'record',
    batchSize: FILINGS_PER_BATCH,
    async *read(input, file): AsyncGenerator<ImportItem> {
      const sourceName = basename(file.name);
      if (!DOCUMENT.test(sourceName)) {
        input.resume();
        yield { kind: 'reject', at: 1, reason: `not an inline XBRL document (.html, .xhtml or .htm expected)` };
        return;
      }
      const bytes = await readWhole(input);
      if (bytes === null) {
        yield { kind: 'reject', at: 1, reason: `larger than ${FILING_MAX_BYTES / 1024 / 1024} MB` };
        return;
      }
      let filing: Filing;
      try {
        filing = parseInlineXbrl(bytes, { kind, sourceName });
      } catch (error) {
        yield { kind: 'reject', at: 1, reason: error instanceof Error ? error.message : String(error) };
        return;
      }
      if (kind === 'ch-accounts' && !filing.companyNumber) {
        yield { kind: 'reject', at: 1, reason: 'the filing states no Companies House company number' };
        return;
      }
      if (kind === 'sec-ixbrl' && !filing.cik) {
        yield { kind: 'reject', at: 1, reason: 'the filing states no CIK (dei:EntityCentralIndexKey)' };
        return;
      }
      yield {
        kind: 'filing',
        at: 1,
        filing,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        figures: normalise(filing),
      };
    },
  };
}

export const chAccountsSource = accountsSource(
  'ch-accounts',
  'Companies House accounts in inline XBRL (.html files, or the Accounts Data Product zip)',
);

export const secIxbrlSource = accountsSource('sec-ixbrl', 'SEC EDGAR filings in inline XBRL (.htm files, or a zip)');
