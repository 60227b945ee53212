// What leaving takedowns out of public counts costs (ADR 0021, core/takedowns/visible.ts): the
// same statements with and without the visibility condition, alternated, on a seeded PostgreSQL
// database with a few companies and people taken down. Prints medians and ratios.
//
//   DATABASE_URL=postgres://…/bench node bench/takedown-visibility.ts [--rounds 7] [--hidden 5]

import { sql } from 'kysely';
import { companiesSection } from '../core/sections/companies.ts';
import { sectionById } from '../core/sections/sections.ts';
import { visibleRow } from '../core/takedowns/visible.ts';
import { openPostgres } from '../db/client.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg('rounds', 7);
const hidden = arg('hidden', 5);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a seeded PostgreSQL database');
const db = await openPostgres(url, 2);
const k = db.kysely;

// A few companies and people taken down, as in production (set directly: this is a measurement).
await sql`update legal_entities set taken_down_at = now() where id in (
  select id from legal_entities order by id limit ${hidden})`.execute(k);
await sql`update members set taken_down_at = now() where id in (
  select member_id from legal_entity_members order by legal_entity_id desc limit ${hidden})`.execute(k);
await sql`analyze legal_entities, members`.execute(k);

const connections = sectionById('connections');
const contacts = sectionById('contacts');
if (!connections || !contacts) throw new Error('sections missing');
const jurisdiction = Number(
  (
    await sql<{
      id: number;
    }>`select company_jurisdiction_id as id from connections group by 1 order by count(*) desc limit 1`.execute(k)
  ).rows[0].id,
);

type Case = { name: string; plain: () => Promise<unknown>; visible: () => Promise<unknown> };
const cases: Case[] = [
  {
    name: 'companies: count of a filter (capped at 1,001)',
    plain: () =>
      sql`select count(*) from (select 1 from legal_entities b where b.jurisdiction_id = ${jurisdiction} limit 1001) t`.execute(
        k,
      ),
    visible: () =>
      sql`select count(*) from (select 1 from legal_entities b where b.jurisdiction_id = ${jurisdiction} and ${visibleRow(companiesSection)} limit 1001) t`.execute(
        k,
      ),
  },
  {
    name: 'contacts: count of a filter (capped at 1,001)',
    plain: () =>
      sql`select count(*) from (select 1 from contacts b where b.company_jurisdiction_id = ${jurisdiction} limit 1001) t`.execute(
        k,
      ),
    visible: () =>
      sql`select count(*) from (select 1 from contacts b where b.company_jurisdiction_id = ${jurisdiction} and ${visibleRow(contacts)} limit 1001) t`.execute(
        k,
      ),
  },
  {
    name: 'contacts: facet cube (whole table GROUP BY)',
    plain: () =>
      sql`select company_jurisdiction_id, company_status_id, count(*) from contacts b group by 1, 2`.execute(k),
    visible: () =>
      sql`select company_jurisdiction_id, company_status_id, count(*) from contacts b where ${visibleRow(contacts)} group by 1, 2`.execute(
        k,
      ),
  },
  {
    name: 'connections: facet cube (whole table GROUP BY, people too)',
    plain: () => sql`select company_jurisdiction_id, position_id, count(*) from connections b group by 1, 2`.execute(k),
    visible: () =>
      sql`select company_jurisdiction_id, position_id, count(*) from connections b where ${visibleRow(connections)} group by 1, 2`.execute(
        k,
      ),
  },
  {
    name: 'connections: first page of a filter',
    plain: () =>
      sql`select * from connections b where b.company_jurisdiction_id = ${jurisdiction} order by since desc, id desc limit 50`.execute(
        k,
      ),
    visible: () =>
      sql`select * from connections b where b.company_jurisdiction_id = ${jurisdiction} and ${visibleRow(connections)} order by since desc, id desc limit 50`.execute(
        k,
      ),
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (f: () => Promise<unknown>) => {
  const started = performance.now();
  await f();
  return performance.now() - started;
};

for (const c of cases) {
  await c.plain();
  await c.visible();
  const plain: number[] = [];
  const visible: number[] = [];
  for (let i = 0; i < rounds; i++) {
    plain.push(await time(c.plain));
    visible.push(await time(c.visible));
  }
  const a = median(plain);
  const b = median(visible);
  console.log(
    `${c.name}: without ${a.toFixed(1)} ms, with ${b.toFixed(1)} ms (median of ${rounds}), ratio ${(b / a).toFixed(2)}`,
  );
}

await sql`update legal_entities set taken_down_at = null where taken_down_at is not null`.execute(k);
await sql`update members set taken_down_at = null where taken_down_at is not null`.execute(k);
await db.close();
