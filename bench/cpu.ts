// CPU per request (`node bench/cpu.ts`, docs/decisions/0040-cpu-per-request.md): where the app's
// milliseconds go beside the SQL it sends. It starts the app (server/main.ts, production build) and a
// bare Fastify + node-postgres server (bench/bare-server.ts) that answers the same paths by running
// the statements the app's own calls send (recorded here: bench/sql-replay.ts), and for each class —
// profile page, search page (exact word), JSON API search (exact word), profile JSON — issues the same
// requests to both, alternating call by call with the SQL alone run from this process (the floor):
//   - CPU per request of each server: its process's CPU seconds (/proc/<pid>/stat utime + stime)
//     over the class's requests ÷ their number (steadier than wall time on a shared machine);
//   - wall p50 of the app, of the bare server and of the SQL alone, and the app ÷ its SQL.
// Round 1 views companies and words for the first time; the later rounds repeat them (what a cache
// keyed by company version can save shows in the difference). An uncached mixed load (profiles and
// search pages, 50 connections, the page cache bypassed by a cookie) runs against both servers in
// turn. Nothing here writes to the database.
//
//   DATABASE_URL      default postgres://postgres@127.0.0.1:5432/registra_bench (read only)
//   --requests N      requests per class and round (default 200)
//   --rounds N        rounds (default 3; the first is the first view)
//   --load-seconds N  each mixed-load run (default 10; 0 skips the load)
//   --profile         also a CPU profile of the app per class (V8 sampling profiler over the
//                     inspector, exactly the class's requests), written as <class>.cpuprofile to
//                     --profile-dir (default /tmp/registra-cpu-profiles), with the top 20 functions
//                     by self time and the top packages printed
//   --results         append the table to bench/RESULTS.md
//   --classes LIST    only the classes whose names hold one of these words (comma-separated, any case),
//                     e.g. `--classes api` for the two JSON API classes; the mixed load needs both pages
//   --before DIR      also the app of another checkout (its own build/), e.g. the commit before a change
//                     (`git archive <commit> | tar -x -C DIR`, node_modules linked, `npx react-router build`):
//                     its requests alternate call by call with this tree's, for before/after in one run
// The app's build (build/) must be current: `npx react-router build` first.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Result as LoadResult } from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { LEGAL_ENTITY_SECTIONS, type LegalEntitySection } from '../core/api/legal-entity-schemas.ts';
import { readLegalEntities } from '../core/api/read-legal-entities.ts';
import { readCompanyProvenance, readNameChanges } from '../core/companies/company-history.ts';
import { companyIdOfUri } from '../core/companies/company-uri.ts';
import { findCompanies, findCompanyIds } from '../core/companies/find-companies.ts';
import { getCompany } from '../core/companies/get-company.ts';
import { getCompanyRecords } from '../core/companies/get-company-records.ts';
import { getLeiDetails } from '../core/companies/lei-details.ts';
import { NOTHING_UNLOCKED } from '../core/purchases/paywall.ts';
import { loadReference } from '../core/reference/reference-data.ts';
import { facetCounts } from '../core/search/facets.ts';
import { parseSearchState } from '../core/search/search-state.ts';
import { companiesSection } from '../core/sections/companies.ts';
import { type Db, openPostgres } from '../db/client.ts';
import { languageIdOf } from '../server/api/route.ts';
import { APP_READY, BENCH_APP_ENV, start } from './app-process.ts';
import type { LoadInput } from './load-worker.ts';
import { type Plan, recordPlan, replayPlan } from './sql-replay.ts';

process.env.NODE_ENV ??= 'production';
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    'load-seconds': { type: 'string', default: '10' },
    profile: { type: 'boolean', default: false },
    'profile-dir': { type: 'string', default: '/tmp/registra-cpu-profiles' },
    results: { type: 'boolean', default: false },
    before: { type: 'string' },
    classes: { type: 'string' },
  },
});
const CLASS_WORDS =
  args.classes
    ?.toLowerCase()
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean) ?? null;
const wantedClass = (name: string) => CLASS_WORDS === null || CLASS_WORDS.some((w) => name.toLowerCase().includes(w));
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/registra_bench';
const REQUESTS = Number(args.requests);
const ROUNDS = Number(args.rounds);
const LOAD_SECONDS = Number(args['load-seconds']);
for (const [name, n] of Object.entries({ REQUESTS, ROUNDS })) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name.toLowerCase()} must be a positive whole number`);
}
/** A reader with a cookie is never served from the page cache. */
const UNCACHED = { cookie: 'bench=uncached' };
const CLOCK_TICK_MS = 10; // getconf CLK_TCK = 100 on Linux
const API = '/api/site/data/v1/legal_entities';

function log(message: string): void {
  console.log(`[cpu ${new Date().toISOString().slice(11, 19)}] ${message}`);
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? s[(s.length - 1) / 2]
      : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((q / 100) * s.length) - 1))];
};

/** CPU milliseconds a process has used (user + system), from /proc. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

/**
 * Waits until each process is idle: its CPU under 5 % of a core over 3 s. A server keeps working
 * after it says it is ready (at 1M companies: counts, statistics and warmed pages, tens of seconds
 * of CPU), which would otherwise be counted as the first rounds' requests' CPU.
 */
async function quiet(pids: number[], label: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const before = pids.map(cpuMs);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const busy = pids.map((pid, i) => (cpuMs(pid) - before[i]) / 3000);
    if (busy.every((b) => b < 0.05)) break;
    if (Date.now() - started > 600_000) throw new Error(`${label} still busy after 10 minutes`);
  }
  log(`${label} idle after ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

// ---------- the classes ----------

type Input = { path: string; plan: Plan };
type Class = { name: string; inputs: Input[] };

const ALL_SECTIONS = new Set<LegalEntitySection>(LEGAL_ENTITY_SECTIONS);

async function classes(db: Db, n: number): Promise<Class[]> {
  const k = db.kysely;
  const reference = await loadReference(db);
  const uris = (
    await sql<{ uri: string }>`select uri from legal_entities order by md5(id::text) limit ${n}`.execute(k)
  ).rows.map((r) => r.uri);
  const words = (
    await sql<{ word: string }>`
      select word from name_words where documents between 5 and 500 order by md5(word) limit ${n}`.execute(k)
  ).rows.map((r) => r.word);
  const state = (q: string) => {
    const parsed = parseSearchState(companiesSection, new URLSearchParams(q));
    if (!parsed.ok) throw new Error(parsed.errors[0].message);
    return parsed.state;
  };
  const read = (d: Db, ids: number[], sections: Set<LegalEntitySection>) =>
    readLegalEntities(d, reference, ids, {
      sections,
      lang: 'en',
      languageId: languageIdOf(reference, 'en'),
      unlocked: NOTHING_UNLOCKED,
    });
  const each = async (
    items: string[],
    path: (x: string) => string,
    calls: (x: string) => ((d: Db) => Promise<unknown>)[],
  ) => Promise.all(items.map(async (x) => ({ path: path(x), plan: await recordPlan(db, calls(x)) })));
  // Only the classes asked for (--classes) record their SQL.
  const only = async (name: string, inputs: () => Promise<Input[]>): Promise<Class[]> =>
    wantedClass(name) ? [{ name, inputs: await inputs() }] : [];
  log(`recording the SQL of ${n} inputs per class…`);
  return [
    ...(await only('profile page', () =>
      // The page's loader (app/presenters/profile-page.server.ts): its statements side by side, then the LEI details.
      each(
        uris,
        (uri) => `/companies/details/${encodeURIComponent(uri)}/`,
        (uri) => {
          const id = companyIdOfUri(uri) ?? 0;
          return [
            (d) => getCompany(d, uri),
            (d) => getCompanyRecords(d, { uri }),
            (d) => readCompanyProvenance(d, id),
            (d) => readNameChanges(d, id),
            (d) => getLeiDetails(d, id),
          ];
        },
      ),
    )),
    ...(await only('search page (exact word)', () =>
      // loadSearchPage: the search and its facet counts side by side.
      each(
        words,
        (w) => `/companies/search/?q=${encodeURIComponent(w)}`,
        (w) => [
          (d) => findCompanies(d, reference, state(`q=${encodeURIComponent(w)}`)),
          (d) => facetCounts(d, reference, companiesSection, state(`q=${encodeURIComponent(w)}`)),
        ],
      ),
    )),
    ...(await only('JSON API search (exact word)', () =>
      each(
        words,
        (w) => `${API}?q=${encodeURIComponent(w)}`,
        (w) => [
          async (d) => {
            const found = await findCompanyIds(
              d,
              reference,
              state(`q=${encodeURIComponent(w)}`),
              companiesSection.pageSize,
            );
            return read(d, found.ids, new Set(['le_legal_entities']));
          },
        ],
      ),
    )),
    ...(await only('JSON API profile (every section)', () =>
      each(
        uris,
        (uri) => `${API}?id=${companyIdOfUri(uri)}&sections=${[...ALL_SECTIONS].join('|')}`,
        (uri) => [(d) => read(d, [companyIdOfUri(uri) ?? 0], ALL_SECTIONS)],
      ),
    )),
  ];
}

// ---------- CPU profiles over the inspector ----------

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

async function inspectorSession(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  };
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  return { send, close: () => ws.close() };
}

/** Self time by function and by package, the top ones, as lines. */
function summarise(profile: CpuProfile): string[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const [i, id] of profile.samples.entries()) {
    const dt = profile.timeDeltas[i] ?? 0;
    const frame = byNode.get(id)!.callFrame;
    const file = frame.url.replace(/^file:\/\//, '');
    const where = file
      ? `${file.replace(/^.*\/(node_modules\/)/, '$1').replace(/^.*\/wt-[^/]+\//, '')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    const pkg =
      /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
      (file.includes('/build/server/')
        ? 'build/server (app, core)'
        : file
          ? file.startsWith('node:')
            ? 'node'
            : 'app source'
          : frame.functionName || '(vm)');
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + dt);
    total += dt;
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(
        ([name, us]) =>
          `  ${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`,
      );
  return [
    `  total ${(total / 1000).toFixed(0)} ms sampled`,
    '  top 20 functions by self time:',
    ...top(self, 20),
    '  by package:',
    ...top(byPackage, 10),
  ];
}

// ---------- the run ----------

const loadStart = os.loadavg();
const uptimeStart = readFileSync('/proc/loadavg', 'utf8').trim();
const db = await openPostgres(DATABASE_URL, 10);
const companies = Number(
  (await sql<{ n: string }>`select count(*) as n from legal_entities`.execute(db.kysely)).rows[0].n,
);
log(`${companies.toLocaleString('en')} companies in ${new URL(DATABASE_URL).pathname.slice(1)}; load ${uptimeStart}`);
// 50 inputs per class beyond the measured ones warm the servers up (twice each: ~400 requests a server).
const warmInputs = await classes(db, REQUESTS + 50);
if (warmInputs.length === 0) throw new Error(`--classes ${args.classes}: no class's name holds any of these words`);
const measured = warmInputs.map((c) => ({ ...c, inputs: c.inputs.slice(0, REQUESTS) }));
// Warm-up uses the inputs after the measured ones; the measured ones are unseen by either server in round 1.
const warm = warmInputs.map((c) => ({ ...c, inputs: c.inputs.slice(REQUESTS) }));
if (warm.some((c) => c.inputs.length < 20)) throw new Error(`need at least ${REQUESTS + 20} inputs per class`);
const plansFile = `/tmp/registra-cpu-plans-${process.pid}.json`;
await writeFile(
  plansFile,
  JSON.stringify(Object.fromEntries(warmInputs.flatMap((c) => c.inputs.map((i) => [i.path, i.plan])))),
);
const floorPool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });

const appEnv = { ...BENCH_APP_ENV, DATABASE_URL };
const app = await start(
  '../server/main.ts',
  [],
  appEnv,
  APP_READY,
  // The inspector is opened only for the profiles, after the measured rounds (SIGUSR1): an open
  // inspector slows the process, which would show as CPU of the app's own.
  args.profile ? ['--inspect-port=127.0.0.1:0'] : [],
);
const before = args.before
  ? await start(`${args.before.replace(/\/$/, '')}/server/main.ts`, [], appEnv, APP_READY)
  : null;
const bare = await start('./bare-server.ts', [plansFile], { DATABASE_URL }, 'ready');
if (before) log(`before: ${args.before} at ${before.base} (pid ${before.child.pid})`);
log(`app ${app.base} (pid ${app.child.pid}), bare fastify + pg ${bare.base} (pid ${bare.child.pid})`);

const get = async (base: string, path: string) => {
  const response = await fetch(base + path, { headers: UNCACHED, redirect: 'manual' });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${base}${path}: ${response.status} ${body.slice(0, 200)}`);
  return body;
};

let exitCode = 0;
try {
  await quiet([app.child.pid!, bare.child.pid!, ...(before ? [before.child.pid!] : [])], 'servers');
  log(`warming both servers (${warm.reduce((s, c) => s + c.inputs.length, 0) * 2} requests, inputs not measured)…`);
  for (let pass = 0; pass < 2; pass++)
    for (const c of warm)
      for (const input of c.inputs) {
        await get(app.base, input.path);
        if (before) await get(before.base, input.path);
        await get(bare.base, input.path);
      }

  type RoundFigures = {
    appCpu: number;
    bareCpu: number;
    beforeCpu: number;
    app: number;
    bare: number;
    floor: number;
    before: number;
  };
  const figures = new Map<string, RoundFigures[]>(measured.map((c) => [c.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const c of measured) {
      const walls = { app: [] as number[], bare: [] as number[], floor: [] as number[], before: [] as number[] };
      const before0 = before ? cpuMs(before.child.pid!) : 0;
      const a0 = cpuMs(app.child.pid!);
      const b0 = cpuMs(bare.child.pid!);
      // App and before swap places every call (the first of a pair met a different moment of the
      // machine than the second: a fixed order showed up as a difference between identical code).
      for (const [i, input] of c.inputs.entries()) {
        const timed = async (base: string, into: number[]) => {
          const t = performance.now();
          await get(base, input.path);
          into.push(performance.now() - t);
        };
        if (before && i % 2 === 1) await timed(before.base, walls.before);
        await timed(app.base, walls.app);
        if (before && i % 2 === 0) await timed(before.base, walls.before);
        const t = performance.now();
        await replayPlan(floorPool, input.plan);
        walls.floor.push(performance.now() - t);
        await timed(bare.base, walls.bare);
      }
      const f: RoundFigures = {
        appCpu: (cpuMs(app.child.pid!) - a0) / c.inputs.length,
        bareCpu: (cpuMs(bare.child.pid!) - b0) / c.inputs.length,
        beforeCpu: before ? (cpuMs(before.child.pid!) - before0) / c.inputs.length : Number.NaN,
        before: before ? p(walls.before, 50) : Number.NaN,
        app: p(walls.app, 50),
        bare: p(walls.bare, 50),
        floor: p(walls.floor, 50),
      };
      figures.get(c.name)!.push(f);
      log(
        `round ${round} ${c.name}: CPU/request app ${f.appCpu.toFixed(2)} ms${before ? `, before ${f.beforeCpu.toFixed(2)} ms` : ''}, bare ${f.bareCpu.toFixed(2)} ms; p50 app ${f.app.toFixed(2)} ms, its SQL ${f.floor.toFixed(2)} ms (${(f.app / f.floor).toFixed(2)}×)${before ? `, before ${f.before.toFixed(2)} ms (${(f.before / f.floor).toFixed(2)}×)` : ''}, bare ${f.bare.toFixed(2)} ms`,
      );
    }
  }

  // Uncached mixed load: profiles and exact-word search pages, every page rendered, against each server in turn.
  const loadRps: { app: number[]; bare: number[]; before: number[] } = { app: [], bare: [], before: [] };
  const profileClass = measured.find((c) => c.name === 'profile page');
  const searchClass = measured.find((c) => c.name === 'search page (exact word)');
  if (LOAD_SECONDS > 0 && profileClass && searchClass) {
    const profiles = profileClass.inputs;
    const searches = searchClass.inputs;
    const paths = profiles.flatMap((pr, i) => [
      pr.path,
      searches[i % searches.length].path,
      profiles[(i + 7) % profiles.length].path,
    ]);
    const runLoad = async (base: string) => {
      const input: LoadInput = { url: base, paths, connections: 50, seconds: LOAD_SECONDS, headers: UNCACHED };
      const child = spawn(process.execPath, [fileURLToPath(new URL('./load-worker.ts', import.meta.url))], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      child.stdin.end(JSON.stringify(input));
      const result = JSON.parse(await text(child.stdout)) as LoadResult;
      const failed = result.errors + result.timeouts + result.non2xx;
      if (failed > 0) log(`  ${failed} failed requests against ${base}`);
      return result.requests.total / (result.duration || LOAD_SECONDS);
    };
    for (let round = 0; round < Math.max(2, ROUNDS - 1); round++) {
      for (const [name, base] of [
        ['app', app.base],
        ...(before ? [['before', before.base] as const] : []),
        ['bare', bare.base],
      ] as const) {
        const rps = await runLoad(base);
        loadRps[name].push(rps);
        log(`mixed load ${name}: ${rps.toFixed(0)} requests/s`);
      }
    }
  }

  // CPU profiles: the app, each class's requests alone, through the inspector.
  const profileLines: string[] = [];
  if (args.profile) {
    await mkdir(args['profile-dir']!, { recursive: true });
    app.child.kill('SIGUSR1');
    const session = await inspectorSession(await app.inspector);
    for (const c of measured) {
      await session.send('Profiler.start');
      for (const input of c.inputs) await get(app.base, input.path);
      const { profile } = (await session.send('Profiler.stop')) as { profile: CpuProfile };
      const file = `${args['profile-dir']}/${c.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      const lines = [`${c.name} (${c.inputs.length} requests): ${file}`, ...summarise(profile)];
      for (const line of lines) console.log(line);
      profileLines.push(...lines);
    }
    session.close();
  }

  // The table: medians over rounds; round 1 (first views) apart for CPU.
  const loadEnd = readFileSync('/proc/loadavg', 'utf8').trim();
  const who = before ? 'after' : 'app';
  // Bytes as sent: each class's first 20 paths (and the search page without a query), plain and brotli.
  // node:http, not fetch: fetch decodes brotli itself, and the bytes wanted are those on the wire.
  const bytesOf = (base: string, path: string, encoding: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(base + path, { headers: { ...UNCACHED, 'accept-encoding': encoding } }, (response) => {
          let n = 0;
          response.on('data', (chunk: Buffer) => {
            n += chunk.length;
          });
          response.on('end', () => resolve(n));
          response.on('error', reject);
        })
        .on('error', reject);
    });
  const bytesLines: string[] = [];
  for (const [name, paths] of [
    ['the search page without a query (/companies/search/)', ['/companies/search/']],
    ...measured.map((c) => [c.name, c.inputs.slice(0, 20).map((i) => i.path)] as const),
  ] as const) {
    const kb = async (base: string, encoding: string) => {
      const sizes: number[] = [];
      for (const path of paths) sizes.push(await bytesOf(base, path, encoding));
      return (median(sizes) / 1000).toFixed(1);
    };
    bytesLines.push(
      `Bytes of ${name}, median of ${paths.length}: ${who} ${await kb(app.base, 'identity')} kB (brotli ${await kb(app.base, 'br')} kB)${before ? `, before ${await kb(before.base, 'identity')} kB (brotli ${await kb(before.base, 'br')} kB)` : ''}.`,
    );
  }
  console.log(bytesLines.join('\n'));

  const table: string[] = [
    `| class | ${who} CPU/request, first view (round 1) | ${who} CPU/request, repeat views (median of rounds 2+) |${before ? ' before CPU/request, first / repeat |' : ''} bare fastify + pg CPU/request | ${who} p50 ÷ its SQL p50 (median of rounds) |${before ? ' before p50 ÷ its SQL p50 |' : ''} ${who} p50 / its SQL p50 / bare p50 |`,
    `|---|---|---|${before ? '---|' : ''}---|---|${before ? '---|' : ''}---|`,
  ];
  for (const c of measured) {
    const f = figures.get(c.name)!;
    const later = f.slice(1);
    const ratio = median(f.map((x) => x.app / x.floor));
    table.push(
      `| ${c.name} | ${f[0].appCpu.toFixed(2)} ms | ${later.length ? `${median(later.map((x) => x.appCpu)).toFixed(2)} ms` : '—'} |${before ? ` ${f[0].beforeCpu.toFixed(2)} / ${later.length ? median(later.map((x) => x.beforeCpu)).toFixed(2) : '—'} ms |` : ''} ${median(f.map((x) => x.bareCpu)).toFixed(2)} ms | ${ratio.toFixed(2)}× |${before ? ` ${median(f.map((x) => x.before / x.floor)).toFixed(2)}× |` : ''} ${median(f.map((x) => x.app)).toFixed(2)} / ${median(f.map((x) => x.floor)).toFixed(2)} / ${median(f.map((x) => x.bare)).toFixed(2)} ms |`,
    );
  }
  const loadLine =
    loadRps.app.length > 0
      ? `Uncached mixed load (2 profiles : 1 search page, 50 connections, ${LOAD_SECONDS} s a run, app and bare in turn): app ${median(loadRps.app).toFixed(0)} req/s, bare fastify + pg ${median(loadRps.bare).toFixed(0)} req/s (medians of ${loadRps.app.length}): ${(median(loadRps.app) / median(loadRps.bare)).toFixed(2)}× ${before ? `; before ${median(loadRps.before).toFixed(0)} req/s: ${(median(loadRps.before) / median(loadRps.bare)).toFixed(2)}×` : ''} (runs: app ${loadRps.app.map((x) => x.toFixed(0)).join(', ')};${before ? ` before ${loadRps.before.map((x) => x.toFixed(0)).join(', ')};` : ''} bare ${loadRps.bare.map((x) => x.toFixed(0)).join(', ')})`
      : 'Mixed load skipped (--load-seconds 0, or --classes without both pages).';
  console.log(['', ...table, '', loadLine].join('\n'));
  if (args.results) {
    const block = [
      '',
      `## CPU per request (bench/cpu.ts), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `\`node bench/cpu.ts --requests ${REQUESTS} --rounds ${ROUNDS} --load-seconds ${LOAD_SECONDS}${args.classes ? ` --classes ${args.classes}` : ''}${before ? ` --before ${args.before}` : ''}\` on ${companies.toLocaleString('en')} companies (${new URL(DATABASE_URL).pathname.slice(1)}, PostgreSQL), git ${process.env.BENCH_COMMIT ?? 'working tree'}. Load average at start ${uptimeStart.split(' ').slice(0, 3).join(' ')}, at end ${loadEnd.split(' ').slice(0, 3).join(' ')} (${os.cpus().length} cores, shared with other work: not a quiet machine).`,
      "CPU per request: the server process's utime + stime (/proc, 10 ms ticks) over the round's requests ÷ their number, background work included. Wall p50s alternate app, SQL alone and bare call by call.",
      '',
      ...table,
      '',
      loadLine,
      '',
      ...bytesLines,
      '',
    ];
    await appendFile(new URL('RESULTS.md', import.meta.url), block.join('\n'));
    log('appended to bench/RESULTS.md');
  }
  void loadStart;
} catch (error) {
  exitCode = 1;
  console.error(error);
} finally {
  await floorPool.end();
  await db.close();
}
process.exit(exitCode);
