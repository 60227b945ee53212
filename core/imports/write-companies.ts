import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { slugify } from '../../db/reference/slugify.ts';
import type { NameChange } from '../companies/name-words.ts';
import { normalizeName } from '../companies/normalize-name.ts';
import { type CompanyFacts, keyStrings } from './company-facts.ts';
import {
  currentValues,
  type FieldWrites,
  factValues,
  primaryIndustry,
  type WriteContext,
  writeFields,
} from './company-fields.ts';
import type { ImportField } from './fields.ts';
import { jurisdictionLocation } from './import-reference.ts';
import { type MergedCompany, mergeCompany } from './merge-companies.ts';
import { insertChanges, insertRows, sameJson, type Tx } from './sql-rows.ts';
import { storageRefusal } from './storage-refusal.ts';

// One batch of company records (docs/decisions/0014-importers.md "Matching", "Idempotency",
// "Transactions"): match each record to a company, diff it against what this source said last
// time, and write the changed fields, their change rows, provenance, keys and the source's record,
// all in one transaction — a batch commits whole or not at all, so no company is ever half written.

export type CompanyItem = { at: number; facts: CompanyFacts };

export type BatchResult = {
  new: number;
  changed: number;
  unchanged: number;
  rejects: { at: number; reason: string }[];
  /** Companies created or changed (what depends on them is refreshed). */
  touched: number[];
  /** Names that changed (old → new; a new company's old is null), for the search lexicon. */
  names: NameChange[];
  /** Companies merged into others (their keys named the same company as another's). */
  merged: (MergedCompany & { survivorId: number })[];
};

export type ImportContext = WriteContext & {
  source: string;
  importId: number;
  /**
   * New companies' rows are inserted without their foreign-key checks (session_replication_role =
   * replica, which only a superuser may set; the database has no triggers of its own).
   */
  uncheckedNewRows?: boolean;
};

/** Moves the id sequences past the largest ids there are (the demo seed writes its own ids). */
export async function alignIdSequences(db: Db): Promise<void> {
  await sql`select setval('legal_entity_ids', greatest((select coalesce(max(id), 0) from legal_entities) + 1,
    (select last_value from legal_entity_ids)), false)`.execute(db.kysely);
  await sql`select setval('member_ids', greatest((select coalesce(max(id), 0) from members) + 1,
    (select last_value from member_ids)), false)`.execute(db.kysely);
}

const emptyResult = (): BatchResult => ({
  new: 0,
  changed: 0,
  unchanged: 0,
  rejects: [],
  touched: [],
  names: [],
  merged: [],
});

/**
 * Records of one batch the database may refuse before the import stops: past this many it is not
 * the records' fault (a schema out of step, a sequence behind) and rejecting the whole file one by
 * one would hide it.
 */
const REFUSED_PER_BATCH = 100;

/**
 * Writes a batch in one transaction. Should the database still refuse a record's values (what it
 * refuses is refused by the schemas before: this is the safety net), the batch rolls back and is
 * written again in halves, in order, down to the one record, which becomes a reject with the
 * database's reason in plain words (storage-refusal.ts): one bad record costs its own place, never
 * the file. Any other error (a lost connection) stops the import as before, and so do more than
 * REFUSED_PER_BATCH refused records in one batch.
 */
export async function writeCompanyBatch(db: Db, context: ImportContext, items: CompanyItem[]): Promise<BatchResult> {
  return writeOrHalve(db, context, items, { count: 0 });
}

async function writeOrHalve(
  db: Db,
  context: ImportContext,
  items: CompanyItem[],
  refused: { count: number },
): Promise<BatchResult> {
  try {
    return await writeInOneTransaction(db, context, items);
  } catch (error) {
    const reason = storageRefusal(error);
    if (reason === null) throw error;
    if (items.length === 1) {
      refused.count += 1;
      if (refused.count > REFUSED_PER_BATCH)
        throw new Error(
          `The database refused more than ${REFUSED_PER_BATCH} records of one batch (the last being number ${(items[0] as CompanyItem).at} in the file): ${reason}`,
          { cause: error },
        );
      return { ...emptyResult(), rejects: [{ at: (items[0] as CompanyItem).at, reason }] };
    }
    const half = Math.ceil(items.length / 2);
    const first = await writeOrHalve(db, context, items.slice(0, half), refused);
    const second = await writeOrHalve(db, context, items.slice(half), refused);
    return {
      new: first.new + second.new,
      changed: first.changed + second.changed,
      unchanged: first.unchanged + second.unchanged,
      rejects: [...first.rejects, ...second.rejects],
      touched: [...first.touched, ...second.touched],
      names: [...first.names, ...second.names],
      merged: [...first.merged, ...second.merged],
    };
  }
}

async function writeInOneTransaction(db: Db, context: ImportContext, items: CompanyItem[]): Promise<BatchResult> {
  const result = emptyResult();
  const r = context.reference;
  await db.kysely.transaction().execute(async (tx) => {
    const merges: { survivor: number; merged: number }[] = [];
    const matches = await match(tx, items, r, merges);
    for (const { survivor, merged } of merges) {
      const gone = await mergeCompany(tx, survivor, merged, context);
      if (!gone) continue;
      result.merged.push({ ...gone, survivorId: survivor });
      result.touched.push(survivor);
      result.names.push({ old: gone.name, new: null });
    }
    const matchedIds = [...new Set([...matches.values()])];
    // Each record's hash; the stored facts are read only where the stored hash differs (a record
    // equal to the source's last one costs no read of its facts).
    const hashes = new Map<CompanyItem, string>();
    for (const item of items) hashes.set(item, factsHash(item.facts));
    const hashOf = new Map<number, string | null>();
    for (const [item, id] of matches) hashOf.set(id, hashOf.has(id) ? null : (hashes.get(item) as string));
    const previous = new Map<number, Record<string, unknown> | typeof SAME>();
    if (matchedIds.length > 0) {
      const rows = await sql<{ legal_entity_id: number; same: boolean | null; facts: Record<string, unknown> | null }>`
        select r.legal_entity_id, r.facts_hash = w.hash as same,
          case when r.facts_hash = w.hash then null else r.facts end as facts
        from company_source_records r
        join unnest(${matchedIds}::bigint[], ${matchedIds.map((id) => hashOf.get(id) ?? null)}::text[]) as w(id, hash)
          on r.legal_entity_id = w.id
        where r.source = ${context.source}`.execute(tx);
      for (const row of rows.rows)
        previous.set(Number(row.legal_entity_id), row.same ? SAME : (row.facts as Record<string, unknown>));
    }
    const firstTime = matchedIds.filter((id) => !previous.has(id));
    // The names as the companies have them now (whoever wrote them): the lexicon moves from these.
    const namesNow = new Map<number, string>();
    const maybeChanged = matchedIds.filter((id) => previous.get(id) !== SAME);
    if (maybeChanged.length > 0)
      for (const row of await tx
        .selectFrom('legal_entities')
        .select(['id', 'name'])
        .where('id', 'in', maybeChanged)
        .execute())
        namesNow.set(row.id, row.name);
    const current = await currentValues(tx, firstTime, r);

    const writes: FieldWrites = new Map();
    const changes: object[] = [];
    const provenance: object[] = [];
    const records: object[] = [];
    const keys: object[] = [];
    const created: { item: CompanyItem; location: number }[] = [];
    const observedAt = new Date().toISOString();
    const writesNew: FieldWrites = new Map();
    const add = (into: FieldWrites) => (id: number, field: ImportField, value: unknown) => {
      const list = into.get(field) ?? [];
      list.push({ id, value });
      into.set(field, list);
    };
    const write = add(writes);
    const writeNew = add(writesNew);

    for (const item of items) {
      const { facts } = item;
      const stored = { ...facts, sourceDate: undefined };
      const id = matches.get(item);
      if (id === undefined) {
        const location = facts.jurisdiction ? jurisdictionLocation(r, facts.jurisdiction) : null;
        if (!facts.name || location === null) {
          result.rejects.push({
            at: item.at,
            reason: !facts.name
              ? `no company in Registra has its keys (${keyStrings(facts.keys)
                  .map((k) => k.key)
                  .join(', ')}), and a new company needs a name`
              : `unknown jurisdiction “${facts.jurisdiction ?? ''}” (an ISO 3166 code was expected)`,
          });
          continue;
        }
        created.push({ item, location });
        continue;
      }
      for (const k of keyStrings(facts.keys)) keys.push({ ...k, legal_entity_id: id, source: context.source });
      const before = previous.get(id);
      if (before === SAME || (before && sameJson(before, stored))) {
        result.unchanged += 1;
        continue;
      }
      const oldValues = before ? factValues(before as CompanyFacts) : (current.get(id) ?? new Map());
      let changed = false;
      for (const [field, value] of factValues(facts)) {
        if (field === 'jurisdiction' && jurisdictionLocation(r, value as string) === null) continue;
        const old = oldValues.get(field) ?? null;
        if (sameJson(old, value ?? null)) continue;
        if (isEmpty(old) && isEmpty(value)) continue;
        changed = true;
        write(id, field, value);
        if (field === 'name') {
          const was = namesNow.get(id);
          result.names.push({
            old: was === undefined ? null : normalizeName(was),
            new: ownCopy(normalizeName(value as string)),
          });
        }
        changes.push({
          legal_entity_id: id,
          field,
          old_value: isEmpty(old) ? null : old,
          new_value: isEmpty(value) ? null : value,
          source: context.source,
          source_date: facts.sourceDate,
          import_id: context.importId,
        });
        provenance.push({
          legal_entity_id: id,
          field,
          source: context.source,
          source_date: facts.sourceDate,
          observed_at: observedAt,
        });
      }
      records.push({
        legal_entity_id: id,
        source: context.source,
        facts: stored,
        facts_hash: hashes.get(item),
        source_date: facts.sourceDate,
        import_id: context.importId,
      });
      if (changed) {
        result.changed += 1;
        result.touched.push(id);
      } else result.unchanged += 1;
    }

    await writeFields(tx, writes, context);
    // A new company's rows reference the company just inserted and reference ids the import read:
    // their foreign keys hold by construction, and checking each (a dozen index probes per company)
    // is skipped when the role may (ADR 0014 "Transactions"). Nothing else runs without the checks.
    if (context.uncheckedNewRows && created.length > 0)
      await sql`set local session_replication_role = replica`.execute(tx);
    if (created.length > 0) {
      const ids = (
        await sql<{
          id: number;
        }>`select nextval('legal_entity_ids') as id from generate_series(1, ${created.length})`.execute(tx)
      ).rows.map((row) => Number(row.id));
      const searchNames: string[] = [];
      const entities = created.map(({ item, location }, i) => {
        const id = ids[i] as number;
        const { facts } = item;
        const name = facts.name as string;
        searchNames[i] = ownCopy(normalizeName(name));
        const slug = slugify(name).slice(0, 80).replace(/-+$/, '') || 'company';
        return {
          id,
          uri: `${slug}-${id}`,
          name,
          search_name: searchNames[i],
          jurisdiction_id: location,
          status_id: facts.status ? (r.statuses.get(facts.status) ?? null) : null,
          registered_on: facts.registeredOn ?? null,
          primary_industry_id: facts.industries ? (primaryIndustry(facts.industries, r) ?? null) : null,
        };
      });
      await insertRows(
        tx,
        'legal_entities',
        {
          id: 'bigint',
          uri: 'text',
          name: 'text',
          search_name: 'text',
          jurisdiction_id: 'int',
          status_id: 'int',
          registered_on: 'date',
          primary_industry_id: 'int',
        },
        entities,
      );
      created.forEach(({ item }, i) => {
        const id = ids[i] as number;
        const { facts } = item;
        result.new += 1;
        result.touched.push(id);
        // No provenance rows: the source record says where each of a new company's facts came from.
        for (const [field, value] of factValues(facts)) writeNew(id, field, value);
        result.names.push({ old: null, new: searchNames[i] as string });
        changes.push({
          legal_entity_id: id,
          field: 'company',
          old_value: null,
          new_value: { name: facts.name, jurisdiction: facts.jurisdiction ?? null },
          source: context.source,
          source_date: facts.sourceDate,
          import_id: context.importId,
        });
        for (const k of keyStrings(facts.keys)) keys.push({ ...k, legal_entity_id: id, source: context.source });
        records.push({
          legal_entity_id: id,
          source: context.source,
          facts: { ...facts, sourceDate: undefined },
          facts_hash: hashes.get(item),
          source_date: facts.sourceDate,
          import_id: context.importId,
        });
      });
    }

    await writeFields(tx, writesNew, { ...context, rowsInserted: true });
    if (context.uncheckedNewRows && created.length > 0)
      await sql`set local session_replication_role = origin`.execute(tx);
    await insertChanges(tx, changes);
    await insertRows(
      tx,
      'company_provenance',
      {
        legal_entity_id: 'bigint',
        field: 'text',
        source: 'text',
        source_date: 'timestamptz',
        observed_at: 'timestamptz',
      },
      provenance,
      sql`on conflict (legal_entity_id, field) do update set source = excluded.source,
        source_date = excluded.source_date, observed_at = excluded.observed_at`,
    );
    await insertRows(
      tx,
      'company_source_records',
      {
        legal_entity_id: 'bigint',
        source: 'text',
        facts: 'jsonb',
        facts_hash: 'text',
        source_date: 'timestamptz',
        import_id: 'bigint',
      },
      records,
      sql`on conflict (legal_entity_id, source) do update set facts = excluded.facts, facts_hash = excluded.facts_hash,
        source_date = excluded.source_date, import_id = excluded.import_id`,
    );
    // A key already naming another company stays with it (merging two companies is not an import's call).
    await insertRows(
      tx,
      'company_keys',
      { scheme: 'text', key: 'text', legal_entity_id: 'bigint', source: 'text' },
      keys,
      sql`on conflict (scheme, key) do nothing`,
    );
  });
  return result;
}

/** A stored record equal to the one read (their hashes are equal): its facts were not read. */
const SAME = Symbol('same');

/**
 * The hash of a record as stored (its facts without the source date): the JSON of the validated
 * facts, whose keys come in a fixed order, so the same record gives the same hash. Unequal
 * hashes only mean the facts are compared (sameJson); equal ones mean equal records.
 */
export function factsHash(facts: CompanyFacts): string {
  return createHash('sha1')
    .update(JSON.stringify({ ...facts, sourceDate: undefined }))
    .digest('base64');
}

/**
 * A string of its own: a string read from a file can be a slice of the whole chunk it came in, and
 * keeping it until the import ends would keep every chunk (memory growing with the file).
 */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/**
 * Each record's company: by its keys in company_keys, best key first (register, LEI, the source's
 * own); then, for companies no import has keyed yet (the demo data), by an LEI or a register
 * number (in the same country) among their identifiers.
 */
async function match(
  tx: Tx,
  items: CompanyItem[],
  r: WriteContext['reference'],
  merges: { survivor: number; merged: number }[],
): Promise<Map<CompanyItem, number>> {
  const wanted = items.flatMap((i) => keyStrings(i.facts.keys));
  const found = new Map<string, number>();
  if (wanted.length > 0) {
    // One primary-key probe per key (the lateral subquery's limit keeps it a nested loop): a join
    // would let the planner hash the whole of company_keys for every batch, which grows with the
    // table — seconds a batch at a million companies (docs/decisions/0014-importers.md "Matching").
    const rows = await sql<{ scheme: string; key: string; legal_entity_id: number }>`
      select w.scheme, w.key, k.legal_entity_id
      from unnest(${wanted.map((w) => w.scheme)}::text[], ${wanted.map((w) => w.key)}::text[]) as w(scheme, key)
      cross join lateral (select c.legal_entity_id from company_keys c
        where c.scheme = w.scheme and c.key = w.key limit 1) k`.execute(tx);
    for (const row of rows.rows) found.set(`${row.scheme} ${row.key}`, Number(row.legal_entity_id));
  }
  // A record whose keys name two companies says they are one: the later ones merge into the
  // company of its best key ("Merges").
  const mergedInto = new Map<number, number>();
  const survivorOf = (id: number): number => {
    let at = id;
    while (mergedInto.has(at)) at = mergedInto.get(at) as number;
    return at;
  };
  const keyed = items.map((item) => ({
    item,
    ids: keyStrings(item.facts.keys)
      .map((k) => found.get(`${k.scheme} ${k.key}`))
      .filter((x): x is number => x !== undefined),
  }));
  for (const { ids } of keyed) {
    const [first, ...others] = [...new Set(ids.map(survivorOf))];
    for (const other of others) {
      if (survivorOf(other) === first) continue;
      mergedInto.set(other, first);
      merges.push({ survivor: first, merged: other });
    }
  }
  const out = new Map<CompanyItem, number>();
  const unmatched: CompanyItem[] = [];
  for (const { item, ids } of keyed) {
    if (ids.length > 0) out.set(item, survivorOf(ids[0]));
    else unmatched.push(item);
  }
  const values = unmatched.flatMap((i) =>
    [i.facts.keys.lei, i.facts.keys.register?.number].filter((v): v is string => !!v),
  );
  if (values.length > 0) {
    const lei = r.identifierTypes.get('lei') ?? -1;
    const number = r.identifierTypes.get('company_number') ?? -1;
    const rows = await sql<{ identifier: string; type: number; legal_entity_id: number; jurisdiction_id: number }>`
      select i.identifier, i.identifier_type_id as type, i.legal_entity_id, l.jurisdiction_id
      from unnest(${[...new Set(values)]}::text[]) as v(identifier)
      cross join lateral (select x.identifier, x.identifier_type_id, x.legal_entity_id from legal_entity_identifiers x
        where x.identifier = v.identifier and x.identifier_type_id in (${lei}, ${number}) offset 0) i
      join legal_entities l on l.id = i.legal_entity_id`.execute(tx);
    for (const item of unmatched) {
      const { keys } = item.facts;
      const byRegister = keys.register
        ? rows.rows.find(
            (row) =>
              row.type === number &&
              row.identifier === keys.register?.number &&
              (r.locationCodes.get(row.jurisdiction_id) ?? '').slice(0, 2) === keys.register.jurisdiction.slice(0, 2),
          )
        : undefined;
      const byLei = keys.lei ? rows.rows.find((row) => row.type === lei && row.identifier === keys.lei) : undefined;
      const hit = byRegister ?? byLei;
      if (hit) out.set(item, Number(hit.legal_entity_id));
    }
  }
  return out;
}
