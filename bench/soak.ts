// Soak: minutes of mixed traffic at a few concurrency levels, on loopback. Is the error rate 0, does
// p95 stay where it was in the first minute, does memory stay flat?
//
//   node bench/soak.ts [--minutes 10] [--connections 50,200] [--companies 5000] [--processes 1] [--no-append]
//
// It starts its own PostgreSQL (scripts/own-postgres.ts) and the app on it (server/main.ts, the
// production build, WEB_CONCURRENCY=--processes, demo companies), then for each level runs that many
// clients at once, each in a loop without pause and with its own address (X-Forwarded-For, the app
// trusting loopback as behind a load balancer): anonymous readers (search pages with filters,
// words and later pages, profiles, the public data API; each client keeps its visitor cookie as a
// browser does), signed-in users saving lists and adding companies to them, and exports (CSV, 200
// companies; the users are granted credits for them); beside them the CLI imports GLEIF files again and again (a new import starts 5 s after
// the last ended). Every minute: requests, errors (any status ≥ 400 or a network error), p50 and
// p95 in ms, and the app's RSS (all its processes; sampled every 5 s, the minute's largest).
// Results are printed, appended to bench/RESULTS.md (unless --no-append) and drawn in
// bench/soak.svg (p95 and RSS per minute, one line per level).

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { grantCredits } from '../core/billing/ledger.ts';
import { openPostgres } from '../db/client.ts';
import { freePort, OwnPostgres, ownPostgresFolder, removeOwnPostgres } from '../scripts/own-postgres.ts';
import { type BenchUser, makeBenchUsers } from './bench-users.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GLEIF = '/work/shared/fixtures/gleif';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50,200' },
    companies: { type: 'string', default: '5000' },
    processes: { type: 'string', default: '1' },
    'no-append': { type: 'boolean', default: false },
  },
});
const MINUTES = Number(args.minutes);
const LEVELS = args.connections.split(',').map(Number);
const COMPANIES = Number(args.companies);
const PROCESSES = Number(args.processes);
const USERS = 400;
const REQUEST_TIMEOUT_MS = 30_000;

type Kind = 'page' | 'profile' | 'data-api' | 'list-write' | 'list-read' | 'export';
type Sample = { at: number; ms: number; kind: Kind; ok: boolean; status: number | string };
type Minute = { minute: number; requests: number; errors: number; p50: number; p95: number; rssMb: number };
type LevelResult = { connections: number; minutes: Minute[]; byKind: Record<string, { n: number; p95: number }> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small deterministic random source (xorshift), one per client. */
function randomOf(seed: number) {
  let x = seed * 2654435761 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 1_000_000) / 1_000_000;
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The app's resident memory in MB: the process and every process it started (cluster workers). */
async function rssMb(pid: number): Promise<number> {
  const pids = [pid];
  const children = await run('ps', ['--ppid', String(pid), '-o', 'pid=']).catch(() => ({ stdout: '' }));
  pids.push(...children.stdout.split(/\s+/).filter(Boolean).map(Number));
  let kb = 0;
  for (const p of pids) {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return Math.round(kb / 1024);
}

type World = { base: string; uris: string[]; users: BenchUser[]; lists: Map<number, number[]> };

const SEARCHES = [
  '/companies/search/',
  '/companies/search/?jurisdiction=276',
  '/companies/search/?jurisdiction=250&sort=registration_date_desc',
  '/companies/search/?q=holding',
  '/companies/search/?q=trading+limited',
  '/de/companies/search/?jurisdiction=826',
  '/liabilities/search/?filed_on:from=2015',
  '/vessels/search/?gross_tonnage:from=100',
  '/companies/directories/jurisdictions/',
  '/',
];

/** One client: a loop of requests until `stop()`; its own visitor cookie, a user when it writes. */
async function client(world: World, n: number, stop: () => boolean, samples: Sample[]): Promise<void> {
  const random = randomOf(n + 1);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  let uid = '';
  while (!stop()) {
    const roll = random();
    const user = world.users[n % world.users.length];
    let kind: Kind;
    let path: string;
    let init: RequestInit = {};
    if (roll < 0.4) {
      kind = 'page';
      const page = Math.floor(random() * 3);
      path = pick(SEARCHES);
      if (page > 0 && path.includes('/search/')) path += `${path.includes('?') ? '&' : '?'}page=${page + 1}`;
    } else if (roll < 0.6) {
      kind = 'profile';
      path = `/companies/details/${encodeURIComponent(pick(world.uris))}/`;
    } else if (roll < 0.8) {
      kind = 'data-api';
      path = `/api/site/data/v1/legal_entities?count=20&jurisdiction=${pick(['276', '250', '826', '840'])}`;
    } else if (roll < 0.9) {
      kind = 'list-write';
      const lists = world.lists.get(user.id) ?? [];
      const headers = { 'content-type': 'application/json', cookie: user.cookie, 'x-csrf-token': user.csrf };
      if (lists.length < 3 || random() < 0.1) {
        path = `/api/watchlists/users/${user.id}`;
        init = { method: 'POST', headers, body: JSON.stringify({ name: `soak ${n}-${Date.now()}-${random()}` }) };
      } else {
        path = `/api/watchlists/${pick(lists)}/objects`;
        init = {
          method: 'POST',
          headers,
          body: JSON.stringify({ company_refs: [pick(world.uris), pick(world.uris)] }),
        };
      }
    } else if (roll < 0.98) {
      kind = 'list-read';
      path = `/api/watchlists/users/${user.id}`;
      init = { headers: { cookie: user.cookie } };
    } else {
      kind = 'export';
      path = `/api/export/companies?format=csv&scope=first&count=200&jurisdiction=${pick(['276', '826'])}`;
      init = { headers: { cookie: user.cookie } };
    }
    if (uid && kind !== 'list-write' && kind !== 'list-read' && kind !== 'export') init = { headers: { cookie: uid } };
    // Each client is its own visitor address, as behind a load balancer (the app trusts loopback's
    // X-Forwarded-For): per-address limits count each client, not all of them as 127.0.0.1.
    init.headers = { ...(init.headers as Record<string, string>), 'x-forwarded-for': `10.${n >> 8}.${n & 255}.1` };
    const started = performance.now();
    let status: number | string;
    try {
      const response = await fetch(`${world.base}${path}`, {
        ...init,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const body = await response.arrayBuffer();
      status = response.status;
      const cookie = response.headers.get('set-cookie');
      if (!uid && cookie?.startsWith('uid=')) uid = cookie.split(';')[0];
      if (kind === 'list-write' && status === 201 && init.method === 'POST' && path.endsWith(`/users/${user.id}`)) {
        const made = JSON.parse(Buffer.from(body).toString('utf8')) as { id?: number; watchlist?: { id: number } };
        const id = made.id ?? made.watchlist?.id;
        if (id) world.lists.set(user.id, [...(world.lists.get(user.id) ?? []), id]);
      }
    } catch (error) {
      status = (error as Error).name === 'TimeoutError' ? 'timeout' : `network: ${(error as Error).message}`;
    }
    const ms = performance.now() - started;
    samples.push({ at: Date.now(), ms, kind, ok: typeof status === 'number' && status < 400, status });
  }
}

/** Imports GLEIF files again and again until `stop()`; returns the exit codes. */
async function importer(databaseUrl: string, stop: () => boolean): Promise<number[]> {
  const files = [
    ['gleif-lei', join(GLEIF, 'lei-cdf-2.1.top10.xml')],
    ['gleif-rr', join(GLEIF, 'rr-cdf.sample.xml')],
  ];
  const codes: number[] = [];
  for (let i = 0; !stop(); i++) {
    const [source, file] = files[i % files.length];
    const code = await run(process.execPath, ['cli/main.ts', 'import', source, file], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    }).then(
      () => 0,
      (error: { code?: number }) => error.code ?? 1,
    );
    codes.push(code);
    for (let waited = 0; waited < 5_000 && !stop(); waited += 250) await sleep(250);
  }
  return codes;
}

async function runLevel(world: World, databaseUrl: string, app: ChildProcess, connections: number) {
  const samples: Sample[] = [];
  const rss: { at: number; mb: number }[] = [];
  const started = Date.now();
  const ends = started + MINUTES * 60_000;
  const stop = () => Date.now() >= ends;
  const sampling = (async () => {
    while (!stop()) {
      rss.push({ at: Date.now(), mb: await rssMb(app.pid ?? 0) });
      await sleep(5_000);
    }
  })();
  const progress = setInterval(() => {
    const minute = Math.floor((Date.now() - started) / 60_000);
    const recent = samples.filter((s) => s.at >= Date.now() - 60_000);
    const errors = recent.filter((s) => !s.ok).length;
    console.log(
      `  ${connections} connections, minute ${minute + 1}: ${recent.length} requests in the last 60 s, ${errors} errors, RSS ${rss.at(-1)?.mb ?? '?'} MB`,
    );
  }, 60_000);
  const [, imports] = await Promise.all([
    Promise.all(Array.from({ length: connections }, (_, n) => client(world, n, stop, samples))),
    importer(databaseUrl, stop),
    sampling,
  ]);
  clearInterval(progress);
  const minutes: Minute[] = [];
  for (let m = 0; m < MINUTES; m++) {
    const from = started + m * 60_000;
    const inMinute = samples.filter((s) => s.at >= from && s.at < from + 60_000);
    const sorted = inMinute.map((s) => s.ms).sort((a, b) => a - b);
    const mb = rss.filter((r) => r.at >= from && r.at < from + 60_000).map((r) => r.mb);
    minutes.push({
      minute: m + 1,
      requests: inMinute.length,
      errors: inMinute.filter((s) => !s.ok).length,
      p50: Math.round(percentile(sorted, 50)),
      p95: Math.round(percentile(sorted, 95)),
      rssMb: mb.length ? Math.max(...mb) : 0,
    });
  }
  const byKind: LevelResult['byKind'] = {};
  for (const kind of new Set(samples.map((s) => s.kind))) {
    const sorted = samples
      .filter((s) => s.kind === kind)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    byKind[kind] = { n: sorted.length, p95: Math.round(percentile(sorted, 95)) };
  }
  const errorKinds = new Map<string, number>();
  // The requests of the measured minutes only (those still in flight at the end are left out, as in the table).
  for (const s of samples.filter((x) => !x.ok && x.at < started + MINUTES * 60_000))
    errorKinds.set(`${s.kind} ${s.status}`, (errorKinds.get(`${s.kind} ${s.status}`) ?? 0) + 1);
  return { result: { connections, minutes, byKind } satisfies LevelResult, imports, errorKinds };
}

/** p95 (ms) and RSS (MB) per minute, one line per level, side by side. */
function plot(results: LevelResult[]): string {
  const width = 360;
  const height = 200;
  const pad = 40;
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];
  const panel = (x0: number, title: string, value: (m: Minute) => number) => {
    const max = Math.max(1, ...results.flatMap((r) => r.minutes.map(value))) * 1.1;
    const x = (minute: number) => x0 + pad + ((minute - 1) / Math.max(1, MINUTES - 1)) * (width - pad - 10);
    const y = (v: number) => height - pad + 10 - (v / max) * (height - pad - 20);
    const lines = results.map((r, i) => {
      const points = r.minutes.map((m) => `${x(m.minute).toFixed(1)},${y(value(m)).toFixed(1)}`).join(' ');
      return `<polyline fill="none" stroke="${colours[i % colours.length]}" stroke-width="2" points="${points}"/>`;
    });
    const ticks = [0, 0.5, 1].map(
      (f) =>
        `<text x="${x0 + pad - 4}" y="${y(max * f) + 4}" text-anchor="end" font-size="10">${Math.round(max * f)}</text>`,
    );
    return [
      `<text x="${x0 + width / 2}" y="14" text-anchor="middle" font-size="12">${title}</text>`,
      `<line x1="${x0 + pad}" y1="${height - pad + 10}" x2="${x0 + width - 10}" y2="${height - pad + 10}" stroke="#999"/>`,
      `<line x1="${x0 + pad}" y1="20" x2="${x0 + pad}" y2="${height - pad + 10}" stroke="#999"/>`,
      `<text x="${x0 + width / 2}" y="${height - 8}" text-anchor="middle" font-size="10">minute 1–${MINUTES}</text>`,
      ...ticks,
      ...lines,
    ].join('\n');
  };
  const legend = results.map(
    (r, i) =>
      `<text x="${2 * width + 10}" y="${40 + i * 16}" font-size="11" fill="${colours[i % colours.length]}">${r.connections} connections</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * width + 120}" height="${height}" font-family="sans-serif">
<title>Soak: p95 and the app's RSS per minute, per number of connections</title>
<rect width="100%" height="100%" fill="#fff"/>
${panel(0, 'p95 per minute (ms)', (m) => m.p95)}
${panel(width, 'app RSS per minute (MB)', (m) => m.rssMb)}
${legend.join('\n')}
</svg>
`;
}

async function main(): Promise<void> {
  const dir = await ownPostgresFolder('registra-soak-');
  const server = await OwnPostgres.in(dir, 'pg');
  let app: ChildProcess | undefined;
  const cleanup = async () => {
    if (app && app.exitCode === null) {
      app.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => app?.once('exit', resolve)), sleep(10_000)]);
      if (app.exitCode === null) app.kill('SIGKILL');
    }
    await removeOwnPostgres(dir, [server]);
  };
  const interrupted = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await server.init();
    await server.start();
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    await admin.query('create database registra');
    await admin.end();
    const databaseUrl = server.url('registra');
    if (!existsSync(join(ROOT, 'build/server/index.js'))) {
      console.log('Building the app (react-router build)…');
      await run(join(ROOT, 'node_modules/.bin/react-router'), ['build'], { cwd: ROOT });
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    console.log(
      `PostgreSQL on port ${server.port}; the app on ${port} (${PROCESSES} process(es), ${COMPANIES} companies)…`,
    );
    app = spawn(process.execPath, ['server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED_COMPANIES: String(COMPANIES),
        WEB_CONCURRENCY: String(PROCESSES),
        TRUST_PROXY: 'loopback',
        // The soak measures the server, not the published quotas: every request is still counted.
        API_LIMIT_FACTOR: '1000',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-20_000);
    };
    app.stdout?.on('data', keep);
    app.stderr?.on('data', keep);
    for (const deadline = Date.now() + 900_000; !log.includes('Registra is ready'); ) {
      if (app.exitCode !== null) throw new Error(`the app exited (${app.exitCode}):\n${log}`);
      if (Date.now() > deadline) throw new Error('the app was not ready within 15 minutes');
      await sleep(500);
    }
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const uris = (await check.query<{ uri: string }>('select uri from legal_entities order by id limit 2000')).rows.map(
      (r) => r.uri,
    );
    await check.end();
    const users = await makeBenchUsers(databaseUrl, USERS, 'soak');
    // Exports spend credits (ADR 0019): enough for the run, so that a 402 would be a fault.
    const ledger = await openPostgres(databaseUrl, 2);
    for (const user of users) await grantCredits(ledger, user.id, 1_000_000, 'soak');
    await ledger.close();
    const world: World = { base, uris, users, lists: new Map() };

    const load = [loadavg()[0]];
    const outcomes = [];
    for (const connections of LEVELS) {
      console.log(`${connections} connections for ${MINUTES} minutes…`);
      outcomes.push(await runLevel(world, databaseUrl, app, connections));
      load.push(loadavg()[0]);
    }
    const survived = app.exitCode === null;

    const lines: string[] = [];
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    lines.push(
      `\n## Soak (bench/soak.ts), ${when} UTC`,
      '',
      `\`node bench/soak.ts --minutes ${MINUTES} --connections ${LEVELS.join(',')} --companies ${COMPANIES} --processes ${PROCESSES}\`: its own PostgreSQL 15 and the app (${PROCESSES} process(es)) on loopback, ${COMPANIES.toLocaleString('en')} demo companies, ${USERS} signed-in users; the clients ran on the same machine. Mix: 40% search and directory pages, 20% profiles, 20% data API, 10% list writes (new lists, companies added), 8% a user's lists, 2% CSV exports of 200 companies; GLEIF imports by the CLI back to back (5 s apart). Load average (1 min) before and after each level: ${load.map((l) => l.toFixed(1)).join(' → ')} on ${availableParallelism()} cores. App survived: ${survived ? 'yes' : 'NO'}.`,
      '',
    );
    for (const { result, imports, errorKinds } of outcomes) {
      const total = result.minutes.reduce((n, m) => n + m.requests, 0);
      const errors = result.minutes.reduce((n, m) => n + m.errors, 0);
      const first = result.minutes[0];
      const last = result.minutes.at(-1) as Minute;
      lines.push(
        `**${result.connections} connections**: ${total.toLocaleString('en')} requests (${(total / (MINUTES * 60)).toFixed(0)}/s), ${errors} errors (${((errors / Math.max(1, total)) * 100).toFixed(3)}%)${errorKinds.size ? ` — ${[...errorKinds].map(([k, v]) => `${k}: ${v}`).join(', ')}` : ''}; p95 first → last minute ${first.p95} → ${last.p95} ms; RSS ${first.rssMb} → ${last.rssMb} MB; imports ${imports.length} (${imports.filter((c) => c !== 0).length} failed). p95 by kind: ${Object.entries(
          result.byKind,
        )
          .map(([k, v]) => `${k} ${v.p95} ms (${v.n.toLocaleString('en')})`)
          .join(', ')}.`,
        '',
        '| minute | requests | errors | p50 ms | p95 ms | RSS MB |',
        '|---:|---:|---:|---:|---:|---:|',
        ...result.minutes.map(
          (m) => `| ${m.minute} | ${m.requests} | ${m.errors} | ${m.p50} | ${m.p95} | ${m.rssMb} |`,
        ),
        '',
      );
    }
    lines.push('![p95 and RSS per minute](soak.svg)', '');
    const text = lines.join('\n');
    console.log(text);
    await writeFile(join(ROOT, 'bench/soak.svg'), plot(outcomes.map((o) => o.result)));
    if (!args['no-append']) await appendFile(join(ROOT, 'bench/RESULTS.md'), text);
  } finally {
    await cleanup();
  }
}

await main();
