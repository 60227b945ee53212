import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename } from 'node:path';
import { sql } from 'kysely';
import { withAdvisoryLock } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { afterCompanyWrite } from '../companies/company-writes.ts';
import type { NameChange } from '../companies/name-words.ts';
import {
  companyFactsSchema,
  describeIssues,
  FileEndedEarlyError,
  type ImportItem,
  type ImportSource,
  keyStrings,
  legalFormSchema,
  MalformedFileError,
  relationshipSchema,
  reportingExceptionSchema,
  WrongFileError,
} from './company-facts.ts';
import { type FilingItem, writeFilings } from './filings.ts';
import { loadImportReference } from './import-reference.ts';
import { writeLegalForms } from './legal-forms.ts';
import { filesOf, openImportFile } from './open-file.ts';
import { linkParentMembers, writeRelationships, writeReportingExceptions } from './relationships.ts';
import { VACUUM_AFTER, vacuumImported } from './vacuum-imported.ts';
import { alignIdSequences, type CompanyItem, type ImportContext, writeCompanyBatch } from './write-companies.ts';

// The import framework (docs/decisions/0014-importers.md): for each file, an `imports` row, the
// source's items validated (zod) at the boundary, written in batches of whole companies, a rejects
// file, and the refresh of what depends on the companies that changed.

export type ImportCounts = { read: number; new: number; changed: number; unchanged: number; rejected: number };

export type ImportProgress = ImportCounts & { bytes: number; totalBytes: number; file: string };

export type ImportOptions = {
  /** Where to list rejected rows (tab-separated: file, line or record, reason); written when there are any. */
  rejectsPath?: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Stops after the batch being written (Ctrl-C): what is written stays whole, the import is marked failed. */
  signal?: AbortSignal;
  /** Records per transaction (default 10,000). */
  batchSize?: number;
};

export type ImportSummary = ImportCounts & {
  importIds: number[];
  /** The first rejects (all of them are in the rejects file). */
  rejects: { file: string; unit: string; at: number; reason: string }[];
  rejectsFile: string | null;
  seconds: number;
  /** Of which refreshing what depends on the changed companies (export documents, lexicon; the vacuum after a large import). */
  refreshSeconds: number;
};

/** Rejects the summary keeps in memory (the rejects file has every one). */
const REJECTS_IN_SUMMARY = 100;

export class ImportInterrupted extends Error {
  constructor() {
    super('The import was interrupted; what was written is whole, and the next run redoes the rest.');
    this.name = 'ImportInterrupted';
  }
}

/**
 * A file stopped part-way (it ended early, or is malformed from a point on): what was read before
 * the point is applied and stays; the message says what was applied and the last record of it.
 */
export class ImportStopped extends Error {
  readonly endedEarly: boolean;
  readonly applied: ImportCounts;
  readonly lastApplied: { file: string; unit: string; at: number; record: string } | null;
  constructor(cause: Error, file: string, applied: ImportCounts, lastApplied: ImportStopped['lastApplied']) {
    const endedEarly = cause instanceof FileEndedEarlyError;
    const n = (x: number) => x.toLocaleString('en');
    // Records read but all rejected (a BODS file refused whole lists its bad statements first): nothing applied.
    const nothing = applied.read === applied.rejected;
    const what = nothing
      ? `Nothing of ${file} was applied${applied.rejected > 0 ? ` (${n(applied.rejected)} rejected)` : ''}.`
      : `Applied from ${file}: ${n(applied.read)} records (${n(applied.new)} new, ${n(applied.changed)} changed, ` +
        `${n(applied.unchanged)} unchanged, ${n(applied.rejected)} rejected)` +
        (lastApplied
          ? `; the last applied: ${lastApplied.file} ${lastApplied.unit} ${n(lastApplied.at)}, ${lastApplied.record}.`
          : '.');
    const next = !endedEarly
      ? ''
      : nothing
        ? ' Run the complete file to import it.'
        : ' Run the complete file again to finish it: what was applied counts as unchanged then.';
    super(`${cause.message} ${what}${next}`, { cause });
    this.name = 'ImportStopped';
    this.endedEarly = endedEarly;
    this.applied = applied;
    this.lastApplied = lastApplied;
  }
}

/** A record in words, for the last one applied: its LEI, register number or the source's own key. */
function describeRecord(item: Exclude<ImportItem, { kind: 'reject' }>): string {
  switch (item.kind) {
    case 'company': {
      const { lei, register, others } = item.facts.keys;
      if (lei) return `LEI ${lei}`;
      if (register) return `company number ${register.number} (${register.jurisdiction})`;
      return others?.[0] ? `${others[0].scheme} ${others[0].key}` : 'a company';
    }
    case 'relationship':
      return `the relationship of LEI ${item.relationship.startLei} to ${item.relationship.endLei}`;
    case 'reporting-exception':
      return `the reporting exception of LEI ${item.exception.lei}`;
    case 'legal-form':
      return `ELF code ${item.form.code}`;
    case 'filing':
      return `the filing ${item.filing.sourceName}`;
  }
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  // A directory (filed accounts, ADR 0037): its files in the order they are imported.
  for (const file of await filesOf(path))
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function runImport(
  db: Db,
  source: ImportSource,
  paths: string[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  // One import at a time per database: an interrupted one found 'running' is then surely dead.
  return withAdvisoryLock(db, 'import', () => importFiles(db, source, paths, options));
}

async function importFiles(
  db: Db,
  source: ImportSource,
  paths: string[],
  options: ImportOptions,
): Promise<ImportSummary> {
  const started = performance.now();
  const summary: ImportSummary = {
    importIds: [],
    read: 0,
    new: 0,
    changed: 0,
    unchanged: 0,
    rejected: 0,
    rejects: [],
    rejectsFile: null,
    seconds: 0,
    refreshSeconds: 0,
  };
  // Imports that died mid-way (a kill, a crash): what they changed is refreshed now, and they are marked.
  const dead = await db.kysely
    .updateTable('imports')
    .set({ status: 'failed', finished_at: new Date(), message: 'interrupted' })
    .where('status', '=', 'running')
    .returning('id')
    .execute();
  if (dead.length > 0) {
    const ids = await db.kysely
      .selectFrom('company_changes')
      .select('legal_entity_id')
      .distinct()
      .where(
        'import_id',
        'in',
        dead.map((d) => d.id),
      )
      .execute();
    if (ids.length > 0) await afterCompanyWrite(db, { companies: ids.map((r) => r.legal_entity_id), names: 'all' });
  }
  await alignIdSequences(db);
  const reference = await loadImportReference(db);
  const batchSize = options.batchSize ?? source.batchSize ?? 10_000;
  const uncheckedNewRows = await maySkipChecks(db);
  let rejectsFile: FileHandle | null = null;
  // The rejects file is written in order by one chain (the reader and the batch being written both reject).
  let rejectsWritten: Promise<void> = Promise.resolve();
  const reject = (file: string, at: number, reason: string, unit: string = source.unit): Promise<void> => {
    summary.rejected += 1;
    counts.rejected += 1;
    if (summary.rejects.length < REJECTS_IN_SUMMARY) summary.rejects.push({ file, unit, at, reason });
    const path = options.rejectsPath;
    if (!path) return Promise.resolve();
    rejectsWritten = rejectsWritten.then(async () => {
      if (!rejectsFile) {
        rejectsFile = await open(path, 'w');
        await rejectsFile.write('file\tunit\tat\treason\n');
        summary.rejectsFile = path;
      }
      await rejectsFile.write(`${file}\t${unit}\t${at}\t${reason.replace(/[\t\n\r]+/g, ' ')}\n`);
    });
    return rejectsWritten;
  };
  let counts: ImportCounts = { read: 0, new: 0, changed: 0, unchanged: 0, rejected: 0 };
  // What depends on the companies a batch touched is refreshed after the batch (memory stays flat:
  // nothing of a batch is kept past it); the count decides the vacuum at the end.
  let touchedCount = 0;
  const refresh = async (ids: number[], names: NameChange[]) => {
    if (ids.length === 0) return;
    const refreshing = performance.now();
    await afterCompanyWrite(db, { companies: ids, names });
    summary.refreshSeconds += (performance.now() - refreshing) / 1000;
    touchedCount += ids.length;
  };
  try {
    for (const path of paths) {
      const fileName = basename(path);
      const row = await db.kysely
        .insertInto('imports')
        .values({ source: source.name, file_name: fileName, file_sha256: await sha256(path), status: 'running' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const importId = row.id;
      summary.importIds.push(importId);
      counts = { read: 0, new: 0, changed: 0, unchanged: 0, rejected: 0 };
      let bytes = 0;
      const opened = await openImportFile(path, (n) => {
        bytes += n;
      });
      const context: ImportContext = {
        source: source.name,
        importId,
        reference,
        uncheckedNewRows,
        memberPositions: source.memberPositions ?? [
          'director',
          'officer',
          'president',
          'shareholder',
          'parent_company',
        ],
      };
      let batch: CompanyItem[] = [];
      let batchKeys = new Set<string>();
      let other: ImportItem[] = [];
      // The last record read into the batch being built, and the last of a batch that committed.
      let lastRead: { file: string; item: Exclude<ImportItem, { kind: 'reject' }> } | null = null;
      let lastApplied: ImportStopped['lastApplied'] = null;
      let entryName = fileName;
      const add = (into: ImportCounts, from: { new: number; changed: number; unchanged: number }) => {
        into.new += from.new;
        into.changed += from.changed;
        into.unchanged += from.unchanged;
      };
      // A batch is written while the next is read and built (the database and this process work at
      // once); the next is written only when the one before has committed, so a record is still
      // diffed against everything before it, and each batch stays one transaction.
      let writing: Promise<void> = Promise.resolve();
      const write = async (entry: string, companies: CompanyItem[], others: ImportItem[], last: typeof lastRead) => {
        if (companies.length > 0) {
          const result = await writeCompanyBatch(db, context, companies);
          add(counts, result);
          add(summary, result);
          const touched = [...result.touched];
          for (const r of result.rejects) await reject(entry, r.at, r.reason);
          // Relationships imported before these companies now find them.
          const leis = companies.flatMap((i) => (i.facts.keys.lei ? [i.facts.keys.lei] : []));
          if (leis.length > 0 && result.new + result.changed > 0) {
            const linked = await db.kysely
              .transaction()
              .execute((tx) => linkParentMembers(tx, { importId, source: source.name }, leis));
            touched.push(...linked);
          }
          await refresh(touched, result.names);
        }
        if (others.length > 0) {
          const result = await writeOthers(db, context, others);
          add(counts, result);
          add(summary, result);
          for (const r of result.rejects) await reject(r.file, r.at, r.reason);
          await refresh(result.touched, result.names);
        }
        if (last)
          lastApplied = {
            file: last.file,
            unit: last.item.unit ?? source.unit,
            at: last.item.at,
            record: describeRecord(last.item),
          };
        options.onProgress?.({ ...counts, bytes, totalBytes: opened.size, file: fileName });
        await db.kysely
          .updateTable('imports')
          .set({ ...counts })
          .where('id', '=', importId)
          .execute();
        if (options.signal?.aborted) throw new ImportInterrupted();
      };
      /** Starts writing what was read (after the batch before it); `wait` also waits for it to commit. */
      const flush = async (entry: string, wait = false) => {
        await writing;
        if (batch.length > 0 || other.length > 0) {
          writing = write(entry, batch, other, lastRead);
          // Seen when awaited (the next flush, or the end of the file); not an unhandled rejection meanwhile.
          writing.catch(() => {});
          batch = [];
          batchKeys = new Set();
          other = [];
        }
        if (wait) await writing;
      };
      try {
        for await (const entry of opened.entries) {
          entryName = entry.name;
          for await (const item of source.read(entry.stream, { name: entryName })) {
            counts.read += 1;
            summary.read += 1;
            if (item.kind === 'reject') {
              await reject(entryName, item.at, item.reason, item.unit);
              continue;
            }
            const checked = validate(item);
            if (typeof checked === 'string') {
              await reject(entryName, item.at, checked, item.unit);
              continue;
            }
            if (checked.kind === 'company') {
              const keys = keyStrings(checked.facts.keys).map((k) => `${k.scheme} ${k.key}`);
              // The same company twice in a batch: the first is written before the second is diffed.
              if (keys.some((k) => batchKeys.has(k))) await flush(entryName);
              for (const k of keys) batchKeys.add(k);
              batch.push({ at: checked.at, facts: checked.facts });
            } else other.push(checked);
            lastRead = { file: entryName, item: checked };
            if (batch.length + other.length >= batchSize) await flush(entryName);
          }
          await flush(entryName, true);
        }
      } catch (caught) {
        let error = caught;
        const wrote = await writing.then(
          () => true,
          () => false,
        );
        // The file stops at a point (cut short, or malformed from there): the records read before
        // it are whole, so they are written too, and the error says what was applied.
        if (wrote && (error instanceof FileEndedEarlyError || error instanceof MalformedFileError)) {
          try {
            await flush(entryName, true);
            error = new ImportStopped(error, fileName, { ...counts }, lastApplied);
          } catch (failed) {
            error = failed;
          }
        }
        const message =
          error instanceof WrongFileError
            ? error.message
            : error instanceof ImportInterrupted
              ? 'interrupted'
              : error instanceof Error
                ? error.message
                : String(error);
        await db.kysely
          .updateTable('imports')
          .set({ ...counts, status: 'failed', finished_at: new Date(), message })
          .where('id', '=', importId)
          .execute();
        throw error;
      }
      await db.kysely
        .updateTable('imports')
        .set({ ...counts, status: 'done', finished_at: new Date() })
        .where('id', '=', importId)
        .execute();
    }
  } finally {
    await rejectsWritten.catch(() => {});
    if (rejectsFile) await (rejectsFile as FileHandle).close();
    // Each batch's dependents were refreshed after it; a large import ends with a vacuum.
    const refreshing = performance.now();
    if (touchedCount >= VACUUM_AFTER) await vacuumImported(db);
    summary.refreshSeconds += (performance.now() - refreshing) / 1000;
    summary.seconds = (performance.now() - started) / 1000;
  }
  // Monitoring reports of what changed are built by a job (docs/decisions/0015-monitoring.md);
  // webhooks pick the changes up on the worker's next tick (ADR 0018).
  const last = summary.importIds.at(-1);
  if (touchedCount > 0 && last !== undefined)
    await afterCompanyWrite(db, { companies: [], names: [], reportImport: last });
  return summary;
}

/** Whether this role may skip foreign-key checks (session_replication_role): a superuser's. */
async function maySkipChecks(db: Db): Promise<boolean> {
  const row = await sql<{ rolsuper: boolean }>`select rolsuper from pg_roles where rolname = current_user`.execute(
    db.kysely,
  );
  return row.rows[0]?.rolsuper === true;
}

/** An item checked against its schema at the boundary: the item (as zod gives it back) or the reason it is rejected. */
function validate(item: Exclude<ImportItem, { kind: 'reject' }>): Exclude<ImportItem, { kind: 'reject' }> | string {
  switch (item.kind) {
    case 'company': {
      const parsed = companyFactsSchema.safeParse(item.facts);
      return parsed.success ? { ...item, facts: parsed.data } : describeIssues(parsed.error);
    }
    case 'relationship': {
      const parsed = relationshipSchema.safeParse(item.relationship);
      return parsed.success ? { ...item, relationship: parsed.data } : describeIssues(parsed.error);
    }
    case 'reporting-exception': {
      const parsed = reportingExceptionSchema.safeParse(item.exception);
      return parsed.success ? { ...item, exception: parsed.data } : describeIssues(parsed.error);
    }
    case 'legal-form': {
      const parsed = legalFormSchema.safeParse(item.form);
      return parsed.success ? { ...item, form: parsed.data } : describeIssues(parsed.error);
    }
    case 'filing':
      // The parser's own output (core/ixbrl); what it cannot read it threw, and the source rejected.
      return item;
  }
}

async function writeOthers(
  db: Db,
  context: ImportContext,
  items: ImportItem[],
): Promise<{
  new: number;
  changed: number;
  unchanged: number;
  touched: number[];
  names: NameChange[];
  rejects: { file: string; at: number; reason: string }[];
}> {
  const { importId, source } = context;
  const out = {
    new: 0,
    changed: 0,
    unchanged: 0,
    touched: [] as number[],
    names: [] as NameChange[],
    rejects: [] as { file: string; at: number; reason: string }[],
  };
  const forms = items.flatMap((i) => (i.kind === 'legal-form' ? [i.form] : []));
  const relationships = items.flatMap((i) => (i.kind === 'relationship' ? [i.relationship] : []));
  const exceptions = items.flatMap((i) => (i.kind === 'reporting-exception' ? [i.exception] : []));
  const filings = items.filter((i): i is FilingItem & { unit?: 'line' | 'record' } => i.kind === 'filing');
  const written: { new: number; changed: number; unchanged: number; touched?: number[] }[] = [];
  if (forms.length > 0) written.push(await writeLegalForms(db, forms));
  if (relationships.length > 0) written.push(await writeRelationships(db, importId, source, relationships));
  if (exceptions.length > 0) written.push(await writeReportingExceptions(db, importId, source, exceptions));
  if (filings.length > 0) {
    const result = await writeFilings(db, context, filings);
    written.push(result);
    out.rejects.push(...result.rejects);
    out.names.push(...result.names);
  }
  for (const result of written) {
    out.new += result.new;
    out.changed += result.changed;
    out.unchanged += result.unchanged;
    out.touched.push(...(result.touched ?? []));
  }
  return out;
}
