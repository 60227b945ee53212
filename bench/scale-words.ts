// The same frequent words on a small and a large database (`node bench/scale-words.ts`, docs/decisions/0002-search-performance.md):
// does a search for a word that names many companies cost more when the data is ten times larger?
// It starts the app (server/main.ts, production build) on each database and asks both for the same
// words — the search page, the JSON API and the app's own SQL (findCompanies, from this process) —
// alternating small and large call by call (which goes first swaps every call), and reports each
// round's p50 and p95 and the large ÷ small ratio of the p95s, with the median over rounds.
// Nothing here writes to either database.
//
//   --small URL   default postgres://postgres@127.0.0.1:5432/registra_bench_100k
//   --large URL   default postgres://postgres@127.0.0.1:5432/registra_bench
//   --words N     the N words naming most companies in the small database (default 50)
//   --rounds N    default 5
//   --results     append the table to bench/RESULTS.md
// The app's build (build/) must be current: `npx react-router build` first.

import { appendFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { findCompanies } from '../core/companies/find-companies.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { parseSearchState } from '../core/search/search-state.ts';
import { companiesSection } from '../core/sections/companies.ts';
import { openPostgres } from '../db/client.ts';
import { APP_READY, BENCH_APP_ENV, start } from './app-process.ts';

process.env.NODE_ENV ??= 'production';
const { values: args } = parseArgs({
  options: {
    small: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/registra_bench_100k' },
    large: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/registra_bench' },
    words: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    results: { type: 'boolean', default: false },
  },
});
const WORDS = Number(args.words);
const ROUNDS = Number(args.rounds);
for (const [name, n] of Object.entries({ words: WORDS, rounds: ROUNDS })) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
}
/** A reader with a cookie is never served from the page cache. */
const UNCACHED = { cookie: 'bench=uncached' };
const API = '/api/site/data/v1/legal_entities';

const log = (message: string) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}] ${message}`);
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const percentile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((q / 100) * s.length) - 1))];
};
const median = (xs: number[]) => percentile(xs, 50);

const sides = [
  { name: 'small', url: args.small },
  { name: 'large', url: args.large },
] as const;
const dbs = await Promise.all(sides.map((s) => openPostgres(s.url, 4)));
const counts = await Promise.all(
  dbs.map(
    async (db) =>
      (await sql<{ n: number }>`select count(*)::int as n from legal_entities`.execute(db.kysely)).rows[0].n,
  ),
);
// The words naming most companies in the small database, and how many they name in each.
const words = (
  await sql<{ word: string }>`
    select word from name_words where length(word) >= 2 order by documents desc, word limit ${WORDS}`.execute(
    dbs[0].kysely,
  )
).rows.map((r) => r.word);
const documents = await Promise.all(
  dbs.map(async (db) => {
    const rows = (
      await sql<{ word: string; documents: number }>`
        select word, documents from name_words where word = any(${words})`.execute(db.kysely)
    ).rows;
    return new Map(rows.map((r) => [r.word, r.documents]));
  }),
);
log(
  `${counts.map((n, i) => `${sides[i].name} ${n.toLocaleString('en')} companies`).join(', ')}; ${words.length} words naming ` +
    `${median(words.map((w) => documents[0].get(w) ?? 0)).toLocaleString('en')} / ${median(words.map((w) => documents[1].get(w) ?? 0)).toLocaleString('en')} companies (medians); load ${loadavg()}`,
);

const references = await Promise.all(dbs.map((db) => loadReference(db)));
const state = (w: string) => {
  const parsed = parseSearchState(companiesSection, new URLSearchParams({ q: w }));
  if (!parsed.ok) throw new Error(parsed.errors[0].message);
  return parsed.state;
};
const apps: Awaited<ReturnType<typeof start>>[] = [];
for (const side of sides)
  apps.push(await start('../server/main.ts', [], { ...BENCH_APP_ENV, DATABASE_URL: side.url }, APP_READY));
const get = async (base: string, path: string) => {
  const response = await fetch(base + path, { headers: UNCACHED, redirect: 'manual' });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${base}${path}: ${response.status} ${body.slice(0, 200)}`);
};

type Kind = 'search page' | 'JSON API' | 'SQL (findCompanies)';
const KINDS: Kind[] = ['search page', 'JSON API', 'SQL (findCompanies)'];
const call = (kind: Kind, side: 0 | 1, w: string) =>
  kind === 'search page'
    ? get(apps[side].base, `/companies/search/?q=${encodeURIComponent(w)}`)
    : kind === 'JSON API'
      ? get(apps[side].base, `${API}?q=${encodeURIComponent(w)}`)
      : findCompanies(dbs[side], references[side], state(w));

const loadStart = loadavg();
log('warming (each word twice on each side, not measured)…');
for (let pass = 0; pass < 2; pass++)
  for (const w of words) for (const kind of KINDS) for (const side of [0, 1] as const) await call(kind, side, w);

type Round = { p50: [number, number]; p95: [number, number] };
const rounds = new Map<Kind, Round[]>(KINDS.map((k) => [k, []]));
for (let round = 1; round <= ROUNDS; round++) {
  for (const kind of KINDS) {
    const times: [number[], number[]] = [[], []];
    for (const [i, w] of words.entries()) {
      // Which side goes first swaps every call.
      for (const side of (i % 2 === 0 ? [0, 1] : [1, 0]) as (0 | 1)[]) {
        const t = performance.now();
        await call(kind, side, w);
        times[side].push(performance.now() - t);
      }
    }
    const r: Round = {
      p50: [percentile(times[0], 50), percentile(times[1], 50)],
      p95: [percentile(times[0], 95), percentile(times[1], 95)],
    };
    rounds.get(kind)!.push(r);
    log(
      `round ${round} ${kind}: p50 ${r.p50.map((x) => x.toFixed(2)).join(' / ')} ms, p95 ${r.p95.map((x) => x.toFixed(2)).join(' / ')} ms, large ÷ small p95 ${(r.p95[1] / r.p95[0]).toFixed(2)}×`,
    );
  }
}
const loadEnd = loadavg();

const fmt = (x: number) => x.toFixed(2);
const lines = [
  '| measure | small p50 / p95 (median of rounds) | large p50 / p95 | large ÷ small p95, median of rounds (range) |',
  '|---|---|---|---|',
  ...KINDS.map((kind) => {
    const rs = rounds.get(kind)!;
    const ratios = rs.map((r) => r.p95[1] / r.p95[0]);
    return `| ${kind} | ${fmt(median(rs.map((r) => r.p50[0])))} / ${fmt(median(rs.map((r) => r.p95[0])))} ms | ${fmt(median(rs.map((r) => r.p50[1])))} / ${fmt(median(rs.map((r) => r.p95[1])))} ms | **${fmt(median(ratios))}×** (${fmt(Math.min(...ratios))}–${fmt(Math.max(...ratios))}) |`;
  }),
];
console.log(lines.join('\n'));
if (args.results) {
  const block = [
    '',
    `## The same frequent words, ${counts[0].toLocaleString('en')} → ${counts[1].toLocaleString('en')} companies (bench/scale-words.ts), ${new Date().toUTCString()}`,
    '',
    `\`node bench/scale-words.ts --words ${WORDS} --rounds ${ROUNDS}\`, git ${process.env.BENCH_COMMIT ?? 'working tree'}: the ${words.length} words naming most companies in the small database (median ${median(words.map((w) => documents[0].get(w) ?? 0)).toLocaleString('en')} companies there, ${median(words.map((w) => documents[1].get(w) ?? 0)).toLocaleString('en')} in the large), small and large alternating call by call. Load average at start ${loadStart}, at end ${loadEnd} (${os.cpus().length} cores).`,
    '',
    ...lines,
    '',
  ];
  await appendFile(new URL('RESULTS.md', import.meta.url), block.join('\n'));
  log('appended to bench/RESULTS.md');
}
await Promise.all(dbs.map((db) => db.close()));
process.exit(0);
