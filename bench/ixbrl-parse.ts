// The inline XBRL reader's speed and memory (ADR 0037), on one core (one process, one thread):
//  1. the real filings of ../shared/fixtures/accounts-ixbrl parsed and normalised, repeated: facts per
//     second and filings per minute (median round), and each filing's median time;
//  2. a synthetic zip of N small fixture-like filings (default 100,000; written entry by entry to a
//     temporary file, ZIP64), read back through the import framework's openImportFile + parseInlineXbrl + normalise with
//     the heap and RSS sampled: the heap kept after a collection at the start, every tenth, and the
//     end, and the peaks. The goal: flat — the memory kept independent of the number of filings.
// `nice -n 10 node --expose-gc bench/ixbrl-parse.ts [--filings 100000] [--rounds 5] [--results]`

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openImportFile } from '../core/imports/open-file.ts';
import { normalise } from '../core/ixbrl/normalise.ts';
import { parseInlineXbrl } from '../core/ixbrl/parse.ts';
import { writeZipEntries } from '../tests/support/zip-file.ts';

const { values: args } = parseArgs({
  options: {
    filings: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    results: { type: 'boolean', default: false },
    'write-zip': { type: 'string' },
  },
});
const FILINGS = Number(args.filings);
const ROUNDS = Number(args.rounds);
const FIXTURES = new URL('../../shared/fixtures/accounts-ixbrl/', import.meta.url);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MB = (n: number) => (n / 1024 / 1024).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- 2. The synthetic zip ----
function syntheticFiling(i: number): string {
  const number = String(100000 + (i % 900000)).padStart(8, '0');
  // Grouped with commas by hand (toLocaleString makes an ICU formatter a call).
  const v = (k: number) => String((i * 7919 + k * 104729) % 9_000_000).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const contexts = ['cy', 'py']
    .map(
      (
        id,
        y,
      ) => `<xbrli:context id="${id}"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">${number}</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>${2022 - y}-01-01</xbrli:startDate><xbrli:endDate>${2022 - y}-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="${id}e"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">${number}</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:instant>${2022 - y}-12-31</xbrli:instant></xbrli:period></xbrli:context>`,
    )
    .join('\n');
  const concepts = [
    'FixedAssets',
    'CurrentAssets',
    'CashBankOnHand',
    'Debtors',
    'Creditors',
    'NetCurrentAssetsLiabilities',
    'TotalAssetsLessCurrentLiabilities',
    'NetAssetsLiabilities',
    'Equity',
    'CalledUpShareCapital',
    'RetainedEarningsAccumulatedLosses',
  ];
  const rows = concepts
    .map(
      (
        c,
        k,
      ) => `<tr><td>${c}</td><td><ix:nonFraction name="core:${c}" contextRef="cye" unitRef="GBP" decimals="0" format="ixt:numcommadot">${v(k)}</ix:nonFraction></td>
<td><ix:nonFraction name="core:${c}" contextRef="pye" unitRef="GBP" decimals="0" format="ixt2:numdotdecimal"${k === 4 ? ' sign="-"' : ''}>${v(k + 20)}</ix:nonFraction></td></tr>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance"
 xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2010-04-20"
 xmlns:ixt2="http://www.xbrl.org/inlineXBRL/transformation/2011-07-31" xmlns:core="http://xbrl.frc.org.uk/fr/2021-01-01/core"
 xmlns:bus="http://xbrl.frc.org.uk/cd/2021-01-01/business"><head><title>Synthetic ${i}</title></head><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="bus:EntityDormantTruefalse" contextRef="cy">false</ix:nonNumeric>
<ix:nonNumeric name="bus:BalanceSheetDate" contextRef="cye">2022-12-31</ix:nonNumeric>
</ix:hidden><ix:resources>${contexts}
<xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit><xbrli:unit id="pure"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p>Registered number: <ix:nonNumeric name="bus:UKCompaniesHouseRegisteredNumber" contextRef="cy">${number}</ix:nonNumeric></p>
<h1><ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cy">SYNTHETIC COMPANY ${i} LIMITED</ix:nonNumeric></h1>
<table>${rows}</table>
<p>Average employees <ix:nonFraction name="core:AverageNumberEmployeesDuringPeriod" contextRef="cy" unitRef="pure" decimals="0">${i % 50}</ix:nonFraction></p>
<p><ix:nonNumeric name="core:AccountingPolicies" contextRef="cy" continuedAt="k1">These accounts have been prepared <ix:exclude>(page 2)</ix:exclude>under</ix:nonNumeric></p>
<ix:continuation id="k1">FRS 102 Section 1A.</ix:continuation>
</body></html>`;
}

// The zip is written by a child process (this file with --write-zip), so that the reading is
// measured in a process that did nothing else before.
if (args['write-zip']) {
  // Each entry's content is made when yazl comes to it, so the archive is never held in memory.
  const entries = function* () {
    for (let i = 0; i < FILINGS; i++) {
      yield {
        name: `Prod224_0001_${String(i).padStart(8, '0')}_20221231.html`,
        data: () => {
          // Each entry's deflate stream holds native zlib memory until its handle is collected:
          // collect now and then, so the writing leaves no large RSS behind for the reading.
          if (i % 250 === 0) gc();
          return syntheticFiling(i);
        },
      };
    }
  };
  await writeZipEntries(args['write-zip'], entries());
  process.exit(0);
}
const dir = await mkdtemp(join(tmpdir(), 'registra-bench-ixbrl-'));
const zipPath = join(dir, 'Accounts_Bulk_Data-synthetic.zip');
const tw = performance.now();
execFileSync(
  process.execPath,
  ['--expose-gc', fileURLToPath(import.meta.url), '--write-zip', zipPath, '--filings', String(FILINGS)],
  {
    stdio: 'inherit',
  },
);
const zipBytes = (await stat(zipPath)).size;
console.log(
  `synthetic zip: ${FILINGS} filings, ${MB(zipBytes)} MB, written in ${((performance.now() - tw) / 1000).toFixed(1)} s`,
);

gc();
const start = process.memoryUsage();
const kept: number[] = [];
const keptRss: number[] = [];
let peakHeap = start.heapUsed;
let peakRss = start.rss;
let n = 0;
let facts = 0;
let rows = 0;
const every = Math.max(1, Math.floor(FILINGS / 10));
const tr = performance.now();
for await (const entry of (await openImportFile(zipPath, () => {})).entries) {
  const filing = parseInlineXbrl(await buffer(entry.stream), { kind: 'ch-accounts', sourceName: entry.name });
  if (filing.companyNumber === null) throw new Error(`${entry.name}: no company number`);
  facts += filing.facts.length;
  rows += normalise(filing).length;
  n++;
  if (n % 500 === 0) {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }
  if (n % every === 0) {
    gc();
    const m = process.memoryUsage();
    kept.push(m.heapUsed);
    keptRss.push(m.rss);
  }
}
const readSeconds = (performance.now() - tr) / 1000;
gc();
const end = process.memoryUsage();
await rm(dir, { recursive: true, force: true });
if (n !== FILINGS) throw new Error(`read ${n} filings of ${FILINGS}`);
const synthetic = {
  filingsPerMinute: Math.round(n / (readSeconds / 60)),
  factsPerSecond: Math.round(facts / readSeconds),
};
console.log(
  `read back: ${n} filings, ${facts} facts, ${rows} figure rows in ${readSeconds.toFixed(1)} s: ${synthetic.filingsPerMinute} filings/min, ${synthetic.factsPerSecond} facts/s`,
);
console.log(
  `heap kept after GC: start ${MB(start.heapUsed)} MB, each tenth ${kept.map(MB).join(' / ')} MB, end ${MB(end.heapUsed)} MB; peak heap ${MB(peakHeap)} MB; RSS start ${MB(start.rss)} MB, peak ${MB(peakRss)} MB, end ${MB(end.rss)} MB`,
);

// ---- 1. The real filings ----
const files = readdirSync(FIXTURES).sort();
const inputs = files.map((name) => ({
  name,
  bytes: readFileSync(new URL(name, FIXTURES)),
  kind: name.startsWith('aapl') ? ('sec-ixbrl' as const) : ('ch-accounts' as const),
}));
const perFile = new Map<string, number[]>();
const rounds: { ms: number; facts: number }[] = [];
for (let r = 0; r < ROUNDS + 1; r++) {
  let facts = 0;
  const t0 = performance.now();
  for (const input of inputs) {
    const t = performance.now();
    const filing = parseInlineXbrl(input.bytes, { kind: input.kind, sourceName: input.name });
    normalise(filing);
    facts += filing.facts.length;
    if (r > 0) perFile.set(input.name, [...(perFile.get(input.name) ?? []), performance.now() - t]);
  }
  if (r > 0) rounds.push({ ms: performance.now() - t0, facts }); // round 0 warms up
}
const mid = median(rounds.map((r) => r.ms));
const factsPerRound = rounds[0].facts;
const real = {
  factsPerSecond: Math.round(factsPerRound / (mid / 1000)),
  filingsPerMinute: Math.round(inputs.length / (mid / 60_000)),
};
console.log(`real filings: ${inputs.length} files, ${factsPerRound} facts a round, median round ${mid.toFixed(0)} ms`);
console.log(`  ${real.factsPerSecond} facts/s, ${real.filingsPerMinute} filings/min`);
const fileRows = inputs.map((i) => {
  const ms = median(perFile.get(i.name) ?? [0]);
  return `| ${i.name} | ${(i.bytes.length / 1024).toFixed(0)} KB | ${ms.toFixed(1)} ms |`;
});

if (args.results) {
  const load = execFileSync('uptime', { encoding: 'utf8' }).trim();
  const text = `
## ${new Date().toUTCString()} — inline XBRL parsing (ADR 0037), one core

\`nice -n 10 node --expose-gc bench/ixbrl-parse.ts --filings ${FILINGS} --rounds ${ROUNDS} --results\` on the shared
2-core machine while other helpers worked (\`uptime\`: ${load}). One process, one thread: parse + normalise.

The real filings of ../shared/fixtures/accounts-ixbrl (${inputs.length} files, ${factsPerRound} facts a round), median of ${ROUNDS} rounds after a warm-up:

| measure | value |
|---|---|
| facts per second | ${real.factsPerSecond.toLocaleString('en-GB')} |
| filings per minute | ${real.filingsPerMinute.toLocaleString('en-GB')} |

| filing | size | median parse + normalise |
|---|---|---|
${fileRows.join('\n')}

A synthetic zip of ${FILINGS.toLocaleString('en-GB')} small Companies House-like filings (${(facts / n).toFixed(0)} facts each, ${MB(zipBytes)} MB deflated,
ZIP64, written by a child process), streamed entry by entry through openImportFile + parseInlineXbrl + normalise in a
process that had done nothing else (the real filings above were measured after it):

| filings | time | filings/min | facts/s | heap kept after GC: start / each tenth / end | peak heap | RSS start / peak / end | RSS after GC, each tenth |
|---|---|---|---|---|---|---|---|
| ${FILINGS.toLocaleString('en-GB')} | ${readSeconds.toFixed(1)} s | ${synthetic.filingsPerMinute.toLocaleString('en-GB')} | ${synthetic.factsPerSecond.toLocaleString('en-GB')} | ${MB(start.heapUsed)} / ${kept.map(MB).join(' / ')} / ${MB(end.heapUsed)} MB | ${MB(peakHeap)} MB | ${MB(start.rss)} / ${MB(peakRss)} / ${MB(end.rss)} MB | ${keptRss.map(MB).join(' / ')} MB |
`;
  await appendFile(new URL('RESULTS.md', import.meta.url), text);
  console.log('appended to bench/RESULTS.md');
}
