import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterCompanyWrite } from '../../core/companies/company-writes.ts';
import type { Relationship, ReportingException } from '../../core/imports/company-facts.ts';
import { writeRelationships, writeReportingExceptions } from '../../core/imports/relationships.ts';
import { alignIdSequences } from '../../core/imports/write-companies.ts';
import { mixSeed, seededRandom } from '../../core/seeded-random.ts';
import { withAdvisoryLock } from '../advisory-lock.ts';
import type { Db } from '../client.ts';
import { generateLei } from './identifiers.ts';

// Ownership in the demo data (ADR 0038): a fresh demo database (server/main.ts) gets a few groups,
// so that the profile's Ownership section, the group pages and the filters "in the group of" and
// "ultimate parent in" show something without importing GLEIF Level 2 or the PSC register.
// Deterministic (the seed picks the companies). Written as the sources are, then the tree built by
// the one home of what a company write changes (afterCompanyWrite → refreshOwnershipTree):
// - a GLEIF group: a top with three direct subsidiaries and subsidiaries three levels deep, each
//   company's direct and ultimate parent as GLEIF relationships (the relationship writer of the
//   gleif-rr importer, which makes the parent-company members and their changes), and the top's
//   reporting exception ("natural persons", the gleif-repex writer): the chain ends there, said;
// - persons with significant control (as the ch-psc importer writes them): a corporate owner with
//   75–100 % of the shares (so the parent of its company), a corporate owner with 25–50 % and a
//   person with 25–50 % of the same company (beneficial owners only).
// Companies chosen are active and not yet in a group; they get the LEI of their identifiers (a
// generated one when they have none) as their key, as an imported LEI record gives it. The import
// row the changes are recorded under (file `demo-ownership`) is 'done' once all is written: the
// mark that it was (an interrupted run writes again, with other companies).

/** The company key source and import file name of the demo's ownership (also: it was written once). */
export const DEMO_OWNERSHIP = 'demo-ownership';

/** The GLEIF group: each company's parent, as an index into the group (0 is the top). */
const GROUP_PARENTS = [null, 0, 0, 0, 1, 1, 4, 6, 2] as const;

export type DemoOwnership = { top: number; group: number[]; owned: number; owners: number[] } | null;

/**
 * Writes the demo's ownership once (null when it was written before, or there are too few
 * companies); as an import, one at a time with the imports (core/imports/run-import.ts).
 */
export async function seedDemoOwnership(db: Db, seed: number): Promise<DemoOwnership> {
  return withAdvisoryLock(db, 'import', () => writeDemoOwnership(db, seed));
}

async function writeDemoOwnership(db: Db, seed: number): Promise<DemoOwnership> {
  const written = await sql`select 1 from imports where file_name = ${DEMO_OWNERSHIP} and status = 'done'`.execute(
    db.kysely,
  );
  if (written.rows.length > 0) return null;
  const candidates = (
    await sql<{ id: string | number; lei: string | null }>`select le.id,
        (select i.identifier from legal_entity_identifiers i join identifier_types it on it.id = i.identifier_type_id
          where i.legal_entity_id = le.id and it.uri = 'lei' order by i.position limit 1) as lei
      from legal_entities le join statuses s on s.id = le.status_id
      where s.uri = 'active' and le.taken_down_at is null
        and not exists (select 1 from company_keys k where k.legal_entity_id = le.id and k.scheme = 'lei')
        and not exists (select 1 from ownership_tree t where t.legal_entity_id = le.id)
      order by le.id limit 2000`.execute(db.kysely)
  ).rows.map((r) => ({ id: Number(r.id), lei: r.lei }));
  const needed = GROUP_PARENTS.length + 3;
  if (candidates.length < needed) return null;
  const random = seededRandom(mixSeed(seed, 38));
  const chosen: { id: number; lei: string }[] = [];
  while (chosen.length < needed) {
    const [c] = candidates.splice(random.int(candidates.length), 1);
    if (c) chosen.push({ id: c.id, lei: c.lei ?? generateLei(random.next) });
  }
  const group = chosen.slice(0, GROUP_PARENTS.length);
  const [owned, majority, minority] = chosen.slice(GROUP_PARENTS.length) as [
    (typeof chosen)[number],
    (typeof chosen)[number],
    (typeof chosen)[number],
  ];

  // The demo seed writes its own ids: the sequences the writers take ids from move past them first.
  await alignIdSequences(db);
  // The import the changes are recorded under; 'done' at the end marks the demo's ownership written.
  const importId = Number(
    (
      await sql<{ id: string | number }>`insert into imports (source, file_name, file_sha256, status)
        values ('gleif-rr', ${DEMO_OWNERSHIP}, ${createHash('sha256').update(`${DEMO_OWNERSHIP} ${seed}`).digest('hex')},
          'running') returning id`.execute(db.kysely)
    ).rows[0]?.id,
  );
  await db.kysely
    .insertInto('company_keys')
    .values(group.map((c) => ({ scheme: 'lei', key: c.lei, legal_entity_id: c.id, source: DEMO_OWNERSHIP })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const top = group[0] as (typeof group)[number];
  const sourceDate = '2026-01-05T08:00:00Z';
  const relationship = (child: string, parent: string, type: string, periodStart: string): Relationship => ({
    startLei: child,
    endLei: parent,
    type,
    status: 'ACTIVE',
    registrationStatus: 'PUBLISHED',
    periodStart,
    periodEnd: null,
    sourceDate,
  });
  const relationships = GROUP_PARENTS.flatMap((parent, i): Relationship[] => {
    const child = group[i] as (typeof group)[number];
    if (parent === null) return [];
    const start = `20${String(10 + i).padStart(2, '0')}-0${1 + (i % 9)}-01`;
    return [
      relationship(child.lei, (group[parent] as (typeof group)[number]).lei, 'IS_DIRECTLY_CONSOLIDATED_BY', start),
      relationship(child.lei, top.lei, 'IS_ULTIMATELY_CONSOLIDATED_BY', start),
    ];
  });
  const relationshipsWritten = await writeRelationships(db, importId, 'gleif-rr', relationships);
  const exceptions: ReportingException[] = [
    'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT',
    'ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT',
  ].map((category) => ({ lei: top.lei, category, reasons: ['NATURAL_PERSONS'], reference: null, sourceDate }));
  const exceptionsWritten = await writeReportingExceptions(db, importId, 'gleif-repex', exceptions);

  // Persons with significant control of `owned`, as the ch-psc importer writes them.
  await db.kysely.transaction().execute(async (tx) => {
    const position = (
      await tx.selectFrom('positions').select('id').where('uri', '=', 'shareholder').executeTakeFirstOrThrow()
    ).id;
    const country = (
      await tx.selectFrom('locations').select('id').where('uri', '=', 'united-kingdom').executeTakeFirst()
    )?.id;
    const names = new Map(
      (
        await tx
          .selectFrom('legal_entities')
          .select(['id', 'name'])
          .where('id', 'in', [majority.id, minority.id])
          .execute()
      ).map((r) => [Number(r.id), r.name]),
    );
    const pscs = [
      {
        name_type: 'legal_entity',
        name: names.get(majority.id) ?? 'Demo Holding',
        legal_entity_id: majority.id,
        natures: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
        since: '2016-04-06',
      },
      {
        name_type: 'legal_entity',
        name: names.get(minority.id) ?? 'Demo Investor',
        legal_entity_id: minority.id,
        natures: ['ownership-of-shares-25-to-50-percent'],
        since: '2019-09-12',
      },
      {
        name_type: 'individual',
        name: 'Imogen Hartley',
        legal_entity_id: null,
        natures: ['ownership-of-shares-25-to-50-percent', 'significant-influence-or-control'],
        since: '2016-04-06',
        birth: { year: 1968, month: 3 },
      },
    ];
    for (const p of pscs) {
      const id = Number((await sql<{ id: number }>`select nextval('member_ids') as id`.execute(tx)).rows[0]?.id);
      const birth = 'birth' in p ? p.birth : null;
      await sql`insert into members (id, name_type, name, legal_entity_id, country_id, birth_year, birth_month)
        values (${id}, ${p.name_type}, ${p.name}, ${p.legal_entity_id}, ${country ?? null},
          ${birth?.year ?? null}, ${birth?.month ?? null})`.execute(tx);
      await sql`insert into legal_entity_members (legal_entity_id, member_id, position_id, since, natures)
        values (${owned.id}, ${id}, ${position}, ${p.since}, ${p.natures}::text[])`.execute(tx);
    }
  });

  await afterCompanyWrite(db, {
    companies: [
      ...new Set([
        ...chosen.map((c) => c.id),
        ...(relationshipsWritten.touched ?? []),
        ...(exceptionsWritten.touched ?? []),
      ]),
    ],
    names: [],
  });
  await sql`update imports set status = 'done', finished_at = now(), new = ${relationships.length + exceptions.length}
    where id = ${importId}`.execute(db.kysely);
  return {
    top: top.id,
    group: group.slice(1).map((c) => c.id),
    owned: owned.id,
    owners: [majority.id, minority.id],
  };
}
