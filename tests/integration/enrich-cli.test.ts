import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance, grantCredits } from '../../core/billing/ledger.ts';
import { openDatabase } from '../../db/open-database.ts';
import { cliArgs, cliDataDir, cliEnv } from '../support/cli-data-dir.ts';

// `npm run cli -- enrich <file> --user <email>`: the enrichment of a user's file from the command
// line (ADR 0020 "Enrichment"): charged once, run with a progress bar, the enriched file written;
// an unknown user or a bad file is a clear error and a non-zero exit.

const run = promisify(execFile);
let dir: string;
let names: { name: string; number: string }[];

const cli = (...args: string[]) => {
  return run(process.execPath, cliArgs(...args), { env: cliEnv(join(dir, 'db')) });
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'registra-enrich-cli-'));
  await cliDataDir(join(dir, 'db'));
  await cli('db', 'seed', '--companies', '40', '--seed', '7');
  const db = await openDatabase({ databaseUrl: undefined, dataDir: join(dir, 'db') });
  try {
    const user = await db.kysely
      .insertInto('users')
      .values({ email: 'cli-enrich@example.com', name: 'CLI', password_hash: 'x', activated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await grantCredits(db, Number(user.id), 10);
    const rows = await db.kysely
      .selectFrom('legal_entities as b')
      .innerJoin('legal_entity_identifiers as i', 'i.legal_entity_id', 'b.id')
      .select(['b.name', 'i.identifier'])
      .where('i.identifier_type_id', '=', 2)
      .orderBy('b.id')
      .limit(3)
      .execute();
    names = rows.map((r) => ({ name: r.name, number: r.identifier }));
  } finally {
    await db.close();
  }
}, 180_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm run cli -- enrich', () => {
  it('charges, runs with progress and writes the enriched file', async () => {
    const file = join(dir, 'clients.csv');
    await writeFile(file, `Company,Company number\n${names.map((n) => `"${n.name}",${n.number}`).join('\n')}\n`);
    const out = join(dir, 'clients-enriched.json');
    const { stdout } = await cli('enrich', file, '--user', 'cli-enrich@example.com', '--out', out, '--format', 'json');
    expect(stdout).toMatch(
      /Enrichment #\d+: 3 rows; columns name = “Company”, registration_number = “Company number”\./,
    );
    expect(stdout).toContain('Charged 1 credit; balance 9.');
    expect(stdout).toMatch(/Done in [\d.]+ s: 3 matched/);
    const json = JSON.parse(await readFile(out, 'utf8'));
    expect(json.rows.map((r: Record<string, unknown>) => r['match.outcome'])).toEqual([
      'matched',
      'matched',
      'matched',
    ]);
    expect(json.rows[0]['registra.name']).toBe(names[0].name);
    const db = await openDatabase({ databaseUrl: undefined, dataDir: join(dir, 'db') });
    try {
      const user = await db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'cli-enrich@example.com')
        .executeTakeFirstOrThrow();
      expect(await creditBalance(db, Number(user.id))).toBe(9);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('refuses an unknown user and a bad file with a clear message and exit 2', async () => {
    const file = join(dir, 'logo.png');
    await writeFile(file, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    for (const [args, message] of [
      [[file, '--user', 'nobody@example.com'], '--user: no user has the email nobody@example.com'],
      [[file, '--user', 'cli-enrich@example.com'], 'is not a CSV file or an XLSX workbook'],
    ] as const) {
      const failure = await cli('enrich', ...args).catch((e: { stderr: string; code: number }) => e);
      expect(failure).toMatchObject({ code: 2 });
      expect((failure as { stderr: string }).stderr).toContain(message);
    }
  }, 120_000);
});
