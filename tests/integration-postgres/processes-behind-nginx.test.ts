// Two app processes behind nginx (Debian's, on loopback) over one PostgreSQL database behave as one
// (docs/decisions/0024-processes-and-replicas.md): a session made through one process acts through
// the other, CSRF included; rate limits count across both; every job runs once, in one of them;
// an import by the CLI (a third process) shows in both, through their page caches. And `npm start`
// with WEB_CONCURRENCY=2 runs two processes on one port.

import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RATE_LIMITS } from '../../core/accounts/rate-limits.ts';
import { MONITORING_REPORTS_JOB } from '../../core/monitoring/enqueue-reports.ts';
import { uniqueEmail } from '../support/accounts.ts';
import { type Started, startServer, stopServer } from '../support/app-processes.ts';
import { type Nginx, startNginx, stopNginx, upstream } from '../support/nginx.ts';
import { createPostgresCopy } from '../support/test-database.ts';

const source = inject('testDatabase');
if (source.kind !== 'postgres')
  throw new Error('tests/integration-postgres/ run only in the integration-postgres project');

const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
const LEI_FILE = '/work/shared/fixtures/gleif/lei-cdf-2.1.top10.xml';
/** A company of LEI_FILE, in no test template. */
const IMPORTED_NAME = 'AFRINVEST SECURITIES LIMITED';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('two app processes behind nginx on one PostgreSQL database', () => {
  let database: { url: string; drop: () => Promise<void> };
  const apps: Started[] = [];
  let nginx: Nginx | undefined;
  let base = '';

  beforeAll(async () => {
    database = await createPostgresCopy(source);
    const env = { TRUST_PROXY: 'loopback', LOG_LEVEL: 'info', PAGE_CACHE_SECONDS: '600' };
    apps.push(...(await Promise.all([startServer(database.url, env), startServer(database.url, env)])));
    nginx = await startNginx(apps.map((app) => app.port));
    base = nginx.url;
  }, 120_000);

  afterAll(async () => {
    if (nginx) await stopNginx(nginx);
    for (const app of apps) await stopServer(app);
    await database?.drop();
  });

  it('signs in through one process and acts (CSRF) through the other', async () => {
    const email = uniqueEmail('nginx');
    const password = 'a long enough password 1';
    const { hashPassword } = await import('../../core/accounts/password-hash.ts');
    await query(
      database.url,
      `insert into users (email, name, password_hash, activated_at) values ($1, 'Behind nginx', $2, now())`,
      [email, await hashPassword(password)],
    );
    const signIn = await fetch(`${base}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    const signedInBy = upstream(signIn);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    const { user, csrf_token: csrf } = (await signIn.json()) as { user: { id: number }; csrf_token: string };
    expect(cookie).toMatch(/^token=/);

    // Round robin: of two posts in a row, one goes to the other process.
    const posts: Response[] = [];
    for (let i = 0; i < 2; i++) {
      posts.push(
        await fetch(`${base}/api/watchlists/users/${user.id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
          body: JSON.stringify({ name: `List ${i}` }),
        }),
      );
    }
    const byOther = posts.find((post) => upstream(post) !== signedInBy);
    expect(byOther, `every post went to ${signedInBy}`).toBeDefined();
    expect(posts.map((post) => post.status)).toEqual([201, 201]);

    // Without the token each process refuses, and a wrong token as well.
    const refused: Record<string, number> = {};
    for (let i = 0; i < 2; i++) {
      const post = await fetch(`${base}/api/watchlists/users/${user.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': i === 0 ? 'wrong' : '' },
        body: JSON.stringify({ name: 'Forged' }),
      });
      refused[upstream(post)] = post.status;
    }
    expect(Object.values(refused)).toEqual([403, 403]);
    const lists = await query<{ name: string }>(database.url, 'select name from watchlists where user_id = $1', [
      user.id,
    ]);
    expect(lists.map((list) => list.name).sort()).toEqual(['List 0', 'List 1']);
  });

  it('counts sign-in attempts against one limit across both processes', async () => {
    const email = uniqueEmail('nginx-guess');
    const statuses: number[] = [];
    const processes = new Set<string>();
    for (let i = 0; i <= RATE_LIMITS.signInAccount.limit; i++) {
      const attempt = await fetch(`${base}/api/authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `wrong guess number ${i}` }),
      });
      statuses.push(attempt.status);
      processes.add(upstream(attempt));
    }
    expect(processes.size).toBe(2);
    expect(statuses.slice(0, -1)).toEqual(Array(RATE_LIMITS.signInAccount.limit).fill(401));
    expect(statuses.at(-1)).toBe(429);
  });

  it('runs every job once, in one process', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const [row] = await query<{ id: number }>(
        database.url,
        `insert into jobs (kind, payload, dedupe_key) values ($1, '{"reason":"manual"}', $2) returning id`,
        [MONITORING_REPORTS_JOB, `nginx-test-${i}-${Date.now()}`],
      );
      ids.push(Number(row.id));
    }
    const deadline = Date.now() + 30_000;
    let jobs: { id: number; status: string; attempts: number }[] = [];
    while (Date.now() < deadline) {
      jobs = await query(database.url, 'select id, status, attempts from jobs where id = any($1)', [ids]);
      if (jobs.every((job) => job.status === 'done')) break;
      await sleep(250);
    }
    expect(jobs.map((job) => [job.status, job.attempts])).toEqual(ids.map(() => ['done', 1]));
    // Each run logs once: as many runs in the two processes' logs as jobs of the kind were done
    // (the daily run, enqueued by whichever process came first, is one of them, once).
    const [done] = await query<{ n: string; daily: string }>(
      database.url,
      `select count(*) filter (where status = 'done') as n,
         count(*) filter (where dedupe_key like $2) as daily from jobs where kind = $1`,
      [MONITORING_REPORTS_JOB, `${MONITORING_REPORTS_JOB}:daily:%`],
    );
    const runs = apps.map((app) => app.output().split('monitoring reports built').length - 1);
    expect(runs[0] + runs[1]).toBe(Number(done.n));
    expect(Number(done.daily)).toBe(1);
  });

  it('shows an import made by the CLI in both processes, through their page caches', async () => {
    const search = `/companies/search/?q=${encodeURIComponent('Afrinvest Securities')}`;
    for (const app of apps) {
      // Kept by each process's page cache for ten minutes (PAGE_CACHE_SECONDS).
      const before = await fetch(`${app.url}${search}`);
      expect(await before.text()).not.toContain(IMPORTED_NAME);
      expect((await fetch(`${app.url}${search}`)).headers.get('x-cache')).toBe('hit');
    }
    const { DATABASE_URL: _, ...env } = process.env;
    await promisify(execFile)(process.execPath, [CLI, 'import', 'gleif-lei', LEI_FILE], {
      env: { ...env, DATABASE_URL: database.url },
      cwd: tmpdir(),
    });
    for (const app of apps) {
      const deadline = Date.now() + 20_000;
      let text = '';
      while (Date.now() < deadline) {
        text = await (await fetch(`${app.url}${search}`)).text();
        if (text.includes(IMPORTED_NAME)) break;
        await sleep(250);
      }
      expect(text, `${app.url} still shows the page from before the import`).toContain(IMPORTED_NAME);
    }
  }, 60_000);
});

/** The processes a process started (`ps --ppid`). */
async function appProcessesOf(pid: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)('ps', ['--ppid', String(pid), '-o', 'pid=']).catch(() => ({
    stdout: '',
  }));
  return stdout.split(/\s+/).filter(Boolean).map(Number);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start with WEB_CONCURRENCY=2', () => {
  let database: { url: string; drop: () => Promise<void> };
  let server: Started | undefined;
  beforeAll(async () => {
    database = await createPostgresCopy(source);
  });
  afterAll(async () => {
    if (server) await stopServer(server);
    await database?.drop();
  });

  it('serves one port from two processes, says so once ready, and stops them all', async () => {
    server = await startServer(database.url, { WEB_CONCURRENCY: '2' });
    expect(server.output()).toMatch(/Registra is ready at .*PostgreSQL, 2 processes/);
    const children = await appProcessesOf(server.child.pid ?? 0);
    expect(children).toHaveLength(2);
    const pages = await Promise.all(Array.from({ length: 6 }, () => fetch(`${server?.url}/companies/search/`)));
    expect(pages.map((page) => page.status)).toEqual(Array(6).fill(200));
    expect(await stopServer(server)).toBe(0);
    expect(children.filter((pid) => isRunning(pid))).toEqual([]);
  }, 120_000);
});
