import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REGISTRY_FIXTURES } from './registry-fixtures.ts';

// The ownership graph's test data (ADR 0038), one home for the integration and browser tests: the
// real GLEIF relationship fixture (rr-cdf.first50.csv), the Companies House basic data and PSC
// samples, and LEI records CONSTRUCTED from the LEI-CDF fixture's first real record under the
// relationship fixture's LEIs and made-up names (never presented as real).

const GLEIF = join(REGISTRY_FIXTURES, 'gleif');
export const LEI_FILE = join(GLEIF, 'lei-cdf-2.1.top10.xml');
export const RR_CSV = join(GLEIF, 'rr-cdf.first50.csv');
export const CH = join(REGISTRY_FIXTURES, 'companies-house/basic-company-data.first12.csv');
export const PSC = join(REGISTRY_FIXTURES, 'companies-house/psc-snapshot.sample.jsonl');

// In the RR fixture: CHILD → directly MIDDLE → directly TOP, and CHILD is ultimately consolidated by
// TOP; GROUP directly consolidates seven companies.
export const CHILD = '21380065UB1WG9BI9554';
export const MIDDLE = '21380049EY73WKXG3136';
export const TOP = '5493003BZYYYCDIO0R13';
export const GROUP = '213800WKOUWXWFJ5Z514';
export const GROUP_CHILDREN = [
  '2138001F4NVOZM27WF08',
  '2138001HBOSZA8OGY314',
  '2138003C8J8P8ALTJ298',
  '21380052OSZ43IY3TS22',
  '2138007GPVQKDRA4W918',
  '2138007XAAFSAJ3S6Y38',
  '2138008H47T7K9A65K73',
];

/** The companies of the chain (all but TOP: a missing link) and of GROUP, with made-up names. */
export const OWNERSHIP_RECORDS: { lei: string; name: string }[] = [
  { lei: CHILD, name: 'CHILD HOLDINGS LIMITED' },
  { lei: MIDDLE, name: 'MIDDLE GROUP PLC' },
  { lei: GROUP, name: 'GROUP PARENT LIMITED' },
  ...GROUP_CHILDREN.map((lei, i) => ({ lei, name: `GROUP SUBSIDIARY ${String.fromCharCode(65 + i)} LIMITED` })),
];

/** Writes an LEI-CDF file at `path` of the fixture's first record under each of `records`' LEI and name. */
export async function writeLeiFile(path: string, records: { lei: string; name: string }[]): Promise<string> {
  const text = await readFile(LEI_FILE, 'utf8');
  const template = text.slice(
    text.indexOf('<lei:LEIRecord>'),
    text.indexOf('</lei:LEIRecord>') + '</lei:LEIRecord>'.length,
  );
  const body = records
    .map((r) =>
      template
        .replaceAll('029200013A5N6ZD0F605', r.lei)
        .replace('AFRINVEST SECURITIES LIMITED</lei:LegalName>', `${r.name}</lei:LegalName>`)
        .replace('RC603315', `RC-${r.lei.slice(-8)}`),
    )
    .join('\n');
  await writeFile(
    path,
    `${text.slice(0, text.indexOf('<lei:LEIRecords>'))}<lei:LEIRecords>\n${body}\n</lei:LEIRecords>\n</lei:LEIData>\n`,
  );
  return path;
}
