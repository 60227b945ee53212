// The ownership graph at 1M companies (ADR 0038): generated groups on a copy of the 1M bench
// database — 1 group of 10,000 subsidiaries, 10 of 1,000, 100 of 100 (each a top with a wide first
// level and chains below it, ten deep) and 2,000 of 10 — written as GLEIF relationships between
// companies given generated LEIs, the tree rebuilt by the real code, then the chain up
// (`ownershipOf` of a company at the bottom) and a group's first page (`groupPage` of a top, 50 rows)
// measured through the real functions, cases alternated. Prints p50/p95 per case.
//
//   DATABASE_URL=postgres://…/registra_bench_copy node bench/ownership.ts [--rounds 200]
//   DATABASE_URL=postgres://…/empty node bench/ownership.ts --generate 1000000
//     (an empty database: migrated, reference data loaded, N companies with a director each made
//     by SQL — for when the 1M bench database cannot be copied because it is in use)
//   … --baseline core/ownership/ownership-before.ts
//     (A/B: a module with another `ownershipOf` — e.g. the last commit's, `git show` into the same
//     folder — measured as its own cases, alternated call by call with the current one)

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { groupPage, ownershipOf } from '../core/ownership/ownership.ts';
import { refreshOwnershipTree } from '../core/ownership/ownership-tree.ts';
import { openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadReferenceData } from '../db/reference/load-reference-data.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg('rounds', 200);
const baselineAt = process.argv.indexOf('--baseline');
const baseline =
  baselineAt > 0
    ? ((await import(pathToFileURL(resolve(process.argv[baselineAt + 1] as string)).href)) as {
        ownershipOf: typeof ownershipOf;
      })
    : null;
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a copy of the 1M bench database');
const db = await openPostgres(url, 2);
const k = db.kysely;

const generate = arg('generate', 0);
if (generate > 0) {
  const began = performance.now();
  await migrate(db);
  await loadReferenceData(db);
  for (let from = 1; from <= generate; from += 100_000) {
    const to = Math.min(generate, from + 99_999);
    await sql`insert into legal_entities (id, uri, name, search_name, jurisdiction_id, status_id, registered_on)
      select g, 'bench-company-' || g, 'Bench Company ' || md5(g::text), 'bench company ' || md5(g::text),
        (select id from locations where uri = any(array['germany', 'united-kingdom', 'france', 'netherlands', 'italy'])
          order by id offset (g % 5) limit 1),
        1, date '1990-01-01' + (g % 12000)::int
      from generate_series(${from}::bigint, ${to}::bigint) g`.execute(k);
    await sql`insert into members (id, name_type, name) select g, 'individual', 'Person ' || g
      from generate_series(${from}::bigint, ${to}::bigint) g`.execute(k);
    await sql`insert into legal_entity_members (legal_entity_id, member_id, position_id)
      select g, g, 1 from generate_series(${from}::bigint, ${to}::bigint) g`.execute(k);
  }
  await sql`analyze`.execute(k);
  console.log(`generated ${generate} companies in ${((performance.now() - began) / 1000).toFixed(0)} s`);
}

const has = await sql<{
  n: number;
}>`select count(*)::int as n from pg_tables where tablename = 'ownership_tree'`.execute(k);
if (has.rows[0]?.n === 0)
  await sql.raw(await readFile(new URL('../db/migrations/0036-ownership.sql', import.meta.url), 'utf8')).execute(k);

const SHAPES = [
  { groups: 1, size: 10_000, wide: 1_000 },
  { groups: 10, size: 1_000, wide: 100 },
  { groups: 100, size: 100, wide: 10 },
  { groups: 2_000, size: 10, wide: 5 },
];
const needed = SHAPES.reduce((n, s) => n + s.groups * (s.size + 1), 0);
const companyCount = Number((await sql<{ n: string }>`select count(*) as n from legal_entities`.execute(k)).rows[0]?.n);
const ids = (
  await sql<{ id: string }>`select id from legal_entities where id % 7 = 3 order by id limit ${needed}`.execute(k)
).rows.map((r) => Number(r.id));
if (ids.length < needed) throw new Error(`only ${ids.length} companies to group, ${needed} needed`);

type Group = { top: number; bottom: number; size: number };
const groups: Group[] = [];
const children: number[] = [];
const parents: number[] = [];
let at = 0;
for (const shape of SHAPES)
  for (let g = 0; g < shape.groups; g += 1) {
    const top = ids[at++] as number;
    const members: number[] = [];
    for (let i = 1; i <= shape.size; i += 1) {
      const id = ids[at++] as number;
      members.push(id);
      // The first `wide` are the top's direct subsidiaries; each later one hangs below the one `wide` before it.
      parents.push(i <= shape.wide ? top : (members[i - 1 - shape.wide] as number));
      children.push(id);
    }
    groups.push({ top, bottom: members[members.length - 1] as number, size: shape.size });
  }
const lei = (id: number) => `BENCH${String(id).padStart(15, '0')}`;
const written = performance.now();
await sql`delete from lei_relationships where start_lei like 'BENCH%'`.execute(k);
await sql`delete from company_keys where scheme = 'lei' and key like 'BENCH%'`.execute(k);
const all = [...new Set([...children, ...parents])];
for (let i = 0; i < all.length; i += 20_000) {
  const part = all.slice(i, i + 20_000);
  await sql`insert into company_keys (scheme, key, legal_entity_id, source)
    select 'lei', 'BENCH' || lpad(id::text, 15, '0'), id, 'bench' from unnest(${part}::bigint[]) id
    on conflict do nothing`.execute(k);
}
for (let i = 0; i < children.length; i += 20_000) {
  await sql`insert into lei_relationships (start_lei, end_lei, relationship_type, relationship_status, registration_status, period_start)
    select c, p, 'IS_DIRECTLY_CONSOLIDATED_BY', 'ACTIVE', 'PUBLISHED', date '2020-01-01'
    from unnest(${children.slice(i, i + 20_000).map(lei)}::text[], ${parents.slice(i, i + 20_000).map(lei)}::text[]) as x(c, p)
    on conflict do nothing`.execute(k);
}
const writeSeconds = (performance.now() - written) / 1000;
const rebuilt = performance.now();
await refreshOwnershipTree(db, 'all');
const rebuildSeconds = (performance.now() - rebuilt) / 1000;
await sql`analyze ownership_tree, lei_relationships, company_keys`.execute(k);
const treeRows = Number((await sql<{ n: string }>`select count(*) as n from ownership_tree`.execute(k)).rows[0]?.n);
// A refresh after a write: one company in the middle of the largest group moves.
const refreshed = performance.now();
await refreshOwnershipTree(db, [children[1_500] as number]);
const refreshSeconds = (performance.now() - refreshed) / 1000;

const pick = (size: number) => groups.filter((g) => g.size === size);
type Case = { name: string; run: (i: number) => Promise<unknown> };
const chainCase = (size: number, label: string, of: typeof ownershipOf): Case => ({
  name: `chain up from the bottom of a ${size.toLocaleString('en')}-company group${label}`,
  run: (i) => {
    const list = pick(size);
    return of(db, (list[i % list.length] as Group).bottom);
  },
});
const cases: Case[] = [
  // With a baseline, its call follows the current one's for each shape: A and B alternate call by call.
  ...SHAPES.flatMap((s) => [
    chainCase(s.size, '', ownershipOf),
    ...(baseline ? [chainCase(s.size, ' (baseline)', baseline.ownershipOf)] : []),
  ]),
  ...SHAPES.map(
    (s): Case => ({
      name: `first page (50) of a ${s.size.toLocaleString('en')}-company group`,
      run: (i) => {
        const list = pick(s.size);
        return groupPage(db, (list[i % list.length] as Group).top, { limit: 50 });
      },
    }),
  ),
];
const times = new Map(cases.map((c) => [c.name, [] as number[]]));
for (const c of cases) await c.run(0); // warm
for (let r = 0; r < rounds; r += 1)
  for (const c of cases) {
    const t0 = performance.now();
    await c.run(r);
    times.get(c.name)?.push(performance.now() - t0);
  }
const quantile = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
const check = await ownershipOf(db, (pick(10_000)[0] as Group).bottom);
console.log(
  JSON.stringify({
    companies: companyCount,
    grouped: treeRows,
    largestChain: check.chain.length,
    largestGroupSize: (await ownershipOf(db, (pick(10_000)[0] as Group).top)).groupSize,
    writeSeconds: Number(writeSeconds.toFixed(1)),
    rebuildSeconds: Number(rebuildSeconds.toFixed(1)),
    refreshOneSeconds: Number(refreshSeconds.toFixed(2)),
    rounds,
    // With a baseline: the two answer the same for the bottom and the top of a group of each shape.
    ...(baseline
      ? {
          sameAsBaseline: (
            await Promise.all(
              SHAPES.flatMap((s) => [pick(s.size)[0] as Group]).flatMap((g) =>
                [g.bottom, g.top].map(
                  async (id) =>
                    JSON.stringify(await ownershipOf(db, id)) === JSON.stringify(await baseline.ownershipOf(db, id)),
                ),
              ),
            )
          ).every(Boolean),
        }
      : {}),
  }),
);
for (const c of cases) {
  const list = times.get(c.name) as number[];
  console.log(`${c.name}: p50 ${quantile(list, 0.5).toFixed(1)} ms, p95 ${quantile(list, 0.95).toFixed(1)} ms`);
}
await db.close();
