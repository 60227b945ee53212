import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../core/api-keys/api-keys.ts';
import {
  BULK_COMPANY_SECTIONS,
  BULK_SECTIONS,
  buildBulkSnapshot,
  csvCells,
} from '../../core/bulk/build-bulk-snapshot.ts';
import type { BulkManifest } from '../../core/bulk/bulk-files.ts';
import { listBulkSnapshots } from '../../core/bulk/bulk-files.ts';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import { writeRecords } from '../../core/records/record-writes.ts';
import { applyTakedown } from '../../core/takedowns/takedowns.ts';
import { bulkDataJob, enqueueDailyBulkData } from '../../jobs/bulk-data.job.ts';
import { drainJobs } from '../../jobs/worker.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies } from '../support/users.ts';

// The bulk data (ADR 0036): a snapshot of a seeded database, then a company renamed, records added,
// changed and removed, and a company taken down; a second snapshot. The first snapshot loaded and the
// change files applied equal the second snapshot and what the data API answers a guest, company by
// company and record by record; the manifests' counts and SHA-256 hold; downloads need a paid key.

type Row = Record<string, unknown>;
type State = Map<string, Map<string, string>>;

let t: TestApp;
let dir: string;
let first: BulkManifest;
let second: BulkManifest;
let freeKey: string;
let paidKey: string;
let takenDown: number;
let removedPermit: number;

const keyText = (key: number[]) => key.join(':');
const sectionOf = (name: string) => BULK_SECTIONS.find((s) => s.name === name) ?? expect.fail(name);

async function fileOf(manifest: BulkManifest, name: string): Promise<Buffer> {
  return readFile(join(dir, manifest.snapshot, name));
}

async function jsonLines(manifest: BulkManifest, name: string): Promise<string[]> {
  const text = gunzipSync(await fileOf(manifest, name)).toString('utf8');
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

/** A snapshot's JSON Lines in memory: per section, each row's text by its key. */
async function load(manifest: BulkManifest): Promise<State> {
  const state: State = new Map();
  for (const section of BULK_SECTIONS) {
    const rows = new Map<string, string>();
    for (const line of await jsonLines(manifest, `${section.name}.jsonl.gz`)) {
      rows.set(keyText(section.keyOf(JSON.parse(line))), line);
    }
    state.set(section.name, rows);
  }
  return state;
}

/** Applies a snapshot's change files to a loaded snapshot, in order. */
async function applyChanges(state: State, manifest: BulkManifest): Promise<void> {
  for (const file of manifest.files.filter((f) => f.kind === 'changes')) {
    const rows = state.get(file.section) ?? expect.fail(file.section);
    for (const line of await jsonLines(manifest, file.name)) {
      const change = JSON.parse(line) as { op: 'upsert' | 'delete'; id: number; legal_entity_id?: number; row?: Row };
      const key = keyText(change.legal_entity_id === undefined ? [change.id] : [change.legal_entity_id, change.id]);
      if (change.op === 'delete') rows.delete(key);
      else rows.set(key, JSON.stringify(change.row));
    }
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'registra-bulk-'));
  t = await buildTestApp({ bulkDataDir: dir, pages: 'build' });
  const free = await createSignedInUser(t.db, 'bulk-free');
  const paid = await createSignedInUser(t.db, 'bulk-paid');
  freeKey = (await createApiKey(t.db, free.id, { name: 'bulk', scopes: ['read'] })).key;
  paidKey = (await createApiKey(t.db, paid.id, { name: 'bulk', scopes: ['read'] })).key;
  const day = 24 * 60 * 60 * 1000;
  await t.db.kysely
    .insertInto('subscriptions')
    .values({
      user_id: paid.id,
      plan_id: 'plan-basic',
      provider: 'sandbox',
      provider_ref: `sub-bulk-${paid.id}`,
      period_start: new Date(Date.now() - day),
      period_end: new Date(Date.now() + 29 * day),
    })
    .execute();

  first = await buildBulkSnapshot(t.db, t.reference, { dir });

  // Changes between the snapshots, through the writers the product uses.
  const [renamed, recorded, hidden] = await someCompanies(t.db, 3, 10);
  takenDown = hidden.id;
  await t.db.kysely
    .updateTable('legal_entities')
    .set({ name: `${renamed.name} Renamed` })
    .where('id', '=', renamed.id)
    .execute();
  await afterCompanyWrite(t.db, { companies: [renamed.id], names: 'all' });
  const [permit] = (
    await writeRecords(t.db, {
      companyId: recorded.id,
      section: 'permits',
      added: [{ type: 'operating', status: 'pending', authority: 'Gewerbeamt Mitte', application_date: '2026-09-01' }],
      source: 'test',
    })
  ).added;
  await writeRecords(t.db, {
    companyId: recorded.id,
    section: 'permits',
    changed: [{ id: permit, values: { status: 'approved' } }],
    source: 'test',
  });
  const gone = await t.db.kysely
    .selectFrom('permits')
    .select(['id', 'legal_entity_id'])
    .where('legal_entity_id', 'not in', [hidden.id, recorded.id])
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  await writeRecords(t.db, {
    companyId: Number(gone.legal_entity_id),
    section: 'permits',
    removed: [Number(gone.id)],
    source: 'test',
  });
  removedPermit = Number(gone.id);
  const existing = await t.db.kysely
    .selectFrom('permits')
    .select('id')
    .where('legal_entity_id', '=', hidden.id)
    .execute();
  if (existing.length === 0) {
    await writeRecords(t.db, {
      companyId: hidden.id,
      section: 'permits',
      added: [{ type: 'operating', status: 'pending', authority: 'Amt', application_date: '2026-08-01' }],
      source: 'test',
    });
  }
  await applyTakedown(t.db, 'hide', {
    target: 'company',
    ref: String(hidden.id),
    reason: 'erasure request',
    actor: 'test',
  });

  second = await buildBulkSnapshot(t.db, t.reference, { dir });
}, 600_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('bulk data snapshots', () => {
  it('the manifest names every file with its true row count, size and SHA-256', async () => {
    expect(second.previous).toBe(first.snapshot);
    expect(first.previous).toBeNull();
    for (const manifest of [first, second]) {
      expect(manifest.files.filter((f) => f.kind === 'snapshot')).toHaveLength(BULK_SECTIONS.length * 2);
      for (const file of manifest.files) {
        const bytes = await fileOf(manifest, file.name);
        expect(file.bytes, file.name).toBe(bytes.length);
        expect(file.sha256, file.name).toBe(createHash('sha256').update(bytes).digest('hex'));
        if (file.format === 'jsonl') {
          expect(file.rows, file.name).toBe((await jsonLines(manifest, file.name)).length);
        } else {
          const records = parse(gunzipSync(bytes).toString('utf8'), {
            bom: true,
            relax_column_count: false,
          }) as string[][];
          expect(records.length - 1, file.name).toBe(file.rows);
          expect(records[0], file.name).toEqual(sectionOf(file.section).columns);
        }
      }
    }
    const companies = first.files.find((f) => f.name === 'companies.jsonl.gz');
    expect(companies?.rows).toBeGreaterThan(300);
  });

  it('the CSV holds the JSON rows’ values: text as is, nested values as JSON', async () => {
    const section = sectionOf('companies');
    const [line] = await jsonLines(second, 'companies.jsonl.gz');
    const csv = parse(gunzipSync(await fileOf(second, 'companies.csv.gz')).toString('utf8'), {
      bom: true,
    }) as string[][];
    const cells = csvCells(section, JSON.parse(line));
    expect(csv[1]).toEqual(cells.map((c) => (c === null ? '' : String(c).replace(/^([=+\-@\t\r])/, "'$1"))));
  });

  it('the first snapshot and the change files give the second snapshot exactly', async () => {
    const state = await load(first);
    await applyChanges(state, second);
    const next = await load(second);
    for (const section of BULK_SECTIONS) {
      expect([...(state.get(section.name)?.entries() ?? [])].sort(), section.name).toEqual(
        [...(next.get(section.name)?.entries() ?? [])].sort(),
      );
    }
  });

  it('a company taken down is absent after its takedown, and its removal is in the change files', async () => {
    const before = await load(first);
    const after = await load(second);
    expect(before.get('companies')?.has(String(takenDown))).toBe(true);
    expect(after.get('companies')?.has(String(takenDown))).toBe(false);
    const deletes = (await jsonLines(second, 'companies.changes.jsonl.gz')).map((l) => JSON.parse(l));
    expect(deletes).toContainEqual({ op: 'delete', id: takenDown });
    const permits = (await jsonLines(second, 'permits.changes.jsonl.gz')).map((l) => JSON.parse(l));
    expect(permits.some((c) => c.op === 'delete' && c.legal_entity_id === takenDown)).toBe(true);
    expect(permits.some((c) => c.op === 'delete' && c.id === removedPermit)).toBe(true);
    expect(permits.some((c) => c.op === 'upsert' && c.row.status?.uri === 'approved')).toBe(true);
    for (const [name, rows] of after) {
      if (name === 'companies') continue;
      expect(
        [...rows.keys()].some((k) => k.startsWith(`${takenDown}:`)),
        name,
      ).toBe(false);
    }
  });

  it('snapshot plus changes equals what the data API answers a guest, for every company and record', async () => {
    const state = await load(first);
    await applyChanges(state, second);
    // Companies, a hundred at a time by id, with every section the files carry.
    const companies = state.get('companies') ?? expect.fail('companies');
    const ids = [...companies.keys()].map(Number);
    const sections = [...BULK_COMPANY_SECTIONS].join('|');
    const visible = await t.db.kysely
      .selectFrom('legal_entities')
      .select('id')
      .where('taken_down_at', 'is', null)
      .execute();
    expect(ids.sort((a, b) => a - b)).toEqual(visible.map((r) => Number(r.id)).sort((a, b) => a - b));
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100);
      const response = await t.app.inject({
        url: `/api/site/data/v1/legal_entities?le_le_id=${batch.join('|')}&sections=${sections}`,
      });
      expect(response.statusCode).toBe(200);
      const data = (response.json() as { data: Row[] }).data;
      expect(data.map((d) => JSON.stringify(d))).toEqual(batch.map((id) => companies.get(String(id))));
    }
    // Every record of every section, page by page.
    for (const section of BULK_SECTIONS.slice(1)) {
      const answered = new Map<string, string>();
      let after: string | null = null;
      do {
        const query: string = `count=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const response = await t.app.inject({ url: `/api/site/data/v1/${section.name}?${query}` });
        expect(response.statusCode, section.name).toBe(200);
        const body = response.json() as { data: Row[]; meta: { next: string | null } };
        for (const row of body.data) answered.set(keyText(section.keyOf(row)), JSON.stringify(row));
        after = body.data.length === 100 ? body.meta.next : null;
      } while (after);
      const rows = state.get(section.name) ?? expect.fail(section.name);
      expect(rows.size, section.name).toBe(answered.size);
      for (const [key, line] of rows) expect(line, `${section.name} ${key}`).toBe(answered.get(key));
    }
  }, 300_000);
});

describe('bulk data over the API', () => {
  const url = () => `/api/bulk/${second.snapshot}/companies.jsonl.gz`;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  it('anyone lists the snapshots, newest first, with their files', async () => {
    const response = await t.app.inject({ url: '/api/bulk' });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { data: BulkManifest[]; meta: { count: number } };
    expect(body.data.map((m) => m.snapshot)).toEqual([second.snapshot, first.snapshot]);
    expect(body.data[0]).toEqual(second);
  });

  it('a guest gets 401, a free plan’s key 403, each naming why', async () => {
    const guest = await t.app.inject({ url: url() });
    expect(guest.statusCode).toBe(401);
    expect(guest.json().error.message).toMatch(/API key of a paid plan/);
    const free = await t.app.inject({ url: url(), headers: bearer(freeKey) });
    expect(free.statusCode).toBe(403);
    expect(free.json().error.message).toMatch(/paid plan/);
  });

  it('a paid plan’s key downloads the file whole (its SHA-256) and by ranges', async () => {
    const file = second.files.find((f) => f.name === 'companies.jsonl.gz') ?? expect.fail('file');
    const whole = await t.app.inject({ url: url(), headers: bearer(paidKey) });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(createHash('sha256').update(whole.rawPayload).digest('hex')).toBe(file.sha256);
    const part = await t.app.inject({ url: url(), headers: { ...bearer(paidKey), range: 'bytes=10-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-99/${file.bytes}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(10, 100))).toBe(true);
    const tail = await t.app.inject({ url: url(), headers: { ...bearer(paidKey), range: 'bytes=-16' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(whole.rawPayload.subarray(file.bytes - 16))).toBe(true);
    const beyond = await t.app.inject({ url: url(), headers: { ...bearer(paidKey), range: `bytes=${file.bytes}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${file.bytes}`);
  });

  it('unknown snapshots and files are 404s, bad names 400s naming the part', async () => {
    const missing = await t.app.inject({
      url: '/api/bulk/2020-01-01T00-00-00-000Z/companies.jsonl.gz',
      headers: bearer(paidKey),
    });
    expect(missing.statusCode).toBe(404);
    const noFile = await t.app.inject({
      url: `/api/bulk/${second.snapshot}/nothing.jsonl.gz`,
      headers: bearer(paidKey),
    });
    expect(noFile.statusCode).toBe(404);
    const bad = await t.app.inject({
      url: `/api/bulk/${second.snapshot}/..%2Fmanifest.json`,
      headers: bearer(paidKey),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toMatchObject({ parameter: 'file' });
  });
});

describe('/info/bulk-data/', () => {
  it('lists every snapshot’s files with rows, size and SHA-256, and download links, to a guest in each language', async () => {
    for (const [prefix, title] of [
      ['', 'Bulk data'],
      ['/de', 'Massendaten'],
      ['/fr', 'Données en masse'],
    ]) {
      const response = await t.app.inject({ url: `${prefix}/info/bulk-data/` });
      expect(response.statusCode).toBe(200);
      const html = response.body;
      expect(html).toContain(`<h1>${title}</h1>`);
      for (const manifest of [first, second]) {
        for (const file of manifest.files) {
          expect(html).toContain(`href="/api/bulk/${manifest.snapshot}/${file.name}"`);
          expect(html).toContain(file.sha256);
        }
      }
      const companies = second.files.find((f) => f.name === 'companies.jsonl.gz') ?? expect.fail('file');
      const row = /companies\.jsonl\.gz<\/a><\/th><td>[^<]+<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td>/.exec(html);
      expect(row?.[1].replace(/\D/g, '')).toBe(String(companies.rows));
      expect(row?.[2]).toMatch(/\d/);
    }
    const footer = (await t.app.inject({ url: '/de/info/legal-notice/' })).body;
    expect(footer).toContain('href="/de/info/bulk-data/"');
  });
});

describe('a build stopped by its signal (a worker shutting down)', () => {
  it('leaves no folder behind and keeps the snapshots there were, stopped at once or part way', async () => {
    const snapshots = (await listBulkSnapshots(dir)).map((m) => m.snapshot);
    const stopping = new AbortController();
    stopping.abort(new Error('the job worker is stopping'));
    await expect(buildBulkSnapshot(t.db, t.reference, { dir, signal: stopping.signal })).rejects.toThrow(
      'the job worker is stopping',
    );
    expect((await readdir(dir)).filter((name) => name.startsWith('.building'))).toEqual([]);
    expect((await listBulkSnapshots(dir)).map((m) => m.snapshot)).toEqual(snapshots);
    // Stopped later, at its fourth step (some files of the snapshot written, a change file begun).
    let steps = 0;
    const late = {
      throwIfAborted() {
        steps += 1;
        if (steps >= 4) throw new Error('late stop');
      },
    } as AbortSignal;
    await expect(buildBulkSnapshot(t.db, t.reference, { dir, signal: late })).rejects.toThrow('late stop');
    expect(steps).toBe(4);
    expect((await readdir(dir)).filter((name) => name.startsWith('.building'))).toEqual([]);
    expect((await listBulkSnapshots(dir)).map((m) => m.snapshot)).toEqual(snapshots);
  });
});

describe('the daily job', () => {
  it('is enqueued once a day and builds the next snapshot, whose change files are empty when nothing changed', async () => {
    const day = new Date('2026-12-04T02:00:00Z');
    expect(await enqueueDailyBulkData(t.db, day)).not.toBeNull();
    expect(await enqueueDailyBulkData(t.db, day)).toBeNull();
    const quiet = { info: () => {}, error: () => {} };
    const services = { db: t.db, reference: t.reference, bulkDataDir: dir } as Parameters<
      typeof drainJobs
    >[0]['services'];
    expect(await drainJobs({ services, log: quiet, definitions: [bulkDataJob as never], daily: false })).toBe(1);
    const [third] = await listBulkSnapshots(dir);
    expect(third.previous).toBe(second.snapshot);
    for (const file of third.files.filter((f) => f.kind === 'changes')) expect(file.rows, file.name).toBe(0);
  });
});
