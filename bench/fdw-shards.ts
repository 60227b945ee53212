// The sharding plan of docs/scaling.md, proven on real PostgreSQL nodes: the company-scoped tables as
// hash partitions by legal_entity_id whose partitions are postgres_fdw foreign tables on three other
// PostgreSQL instances (loopback), the rest of the schema on the coordinator as reference data
// (and copied to every node, as Citus replicates reference tables); then the bench's query classes
// (bench/query-classes.ts) against the coordinator and against the single-node database holding the
// same data, alternating call by call.
//
//   node bench/fdw-shards.ts --source postgres://…:5446/single --setup   builds the nodes and the coordinator
//   node bench/fdw-shards.ts --source postgres://…:5446/single           measures (markdown on stdout)
//   node bench/fdw-shards.ts --stop                                      stops the three nodes
//
//   --nodes 5447,5448,5449   the nodes' ports (data folders /work/pg-h19-<port>, initdb when missing)
//   --coordinator NAME       the coordinator's database on the source's server (default coord)
//
// Setup copies the source's schema with pg_dump (pre-data to every node and the coordinator, the
// data, then post-data so indexes and keys are built once); every distributed table's rows go to
// the node of their hash partition (satisfies_hash_partition, the function behind the partition
// constraint, so the coordinator routes exactly as the data was placed); every other table is
// copied whole to each node. On the coordinator each distributed table becomes
// `partition by hash (legal_entity_id)` (legal_entities: by id) with a foreign partition per node.

import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadReference } from '../core/reference/reference-data.ts';
import { openPostgres } from '../db/client.ts';
import { inputsFrom, percentile, queryClasses } from './query-classes.ts';

const { values: args } = parseArgs({
  options: {
    source: { type: 'string', default: 'postgres://postgres@127.0.0.1:5446/single' },
    nodes: { type: 'string', default: '5447,5448,5449' },
    coordinator: { type: 'string', default: 'coord' },
    setup: { type: 'boolean', default: false },
    stop: { type: 'boolean', default: false },
    inputs: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
  },
});
const SOURCE = new URL(args.source);
const NODES = args.nodes.split(',').map(Number);
const COORD = new URL(SOURCE.href);
COORD.pathname = `/${args.coordinator}`;
const NODE_DB = 'shard';
const asRoot = process.getuid?.() === 0;

const log = (m: string) => console.error(`[fdw ${new Date().toISOString().slice(11, 19)}] ${m}`);
const dataDir = (port: number) => `/work/pg-h19-${port}`;
const nodeUrl = (port: number) => `postgres://postgres@127.0.0.1:${port}/${NODE_DB}`;
const conn = (url: URL | string) => {
  const u = new URL(url);
  return `-h ${u.hostname} -p ${u.port} -U ${u.username || 'postgres'} -d ${u.pathname.slice(1)}`;
};

/** Runs a PostgreSQL server tool, as the postgres user when root. */
function pgTool(command: string): void {
  execSync(asRoot ? `runuser -u postgres -- ${command}` : command, { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function query(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

function startNode(port: number): void {
  const dir = dataDir(port);
  if (!existsSync(`${dir}/PG_VERSION`)) {
    mkdirSync(dir, { recursive: true });
    if (asRoot) execFileSync('chown', ['postgres', dir]);
    pgTool(`initdb -D ${dir} -U postgres --auth=trust -E UTF8 --no-sync`);
    // A third of the source's memory each: the three nodes hold together what the one node holds.
    execSync(
      `cat >> ${dir}/postgresql.conf <<'EOF'\nshared_buffers = 384MB\nmaintenance_work_mem = 256MB\nmax_wal_size = 4GB\nwal_level = minimal\nmax_wal_senders = 0\nsynchronous_commit = off\nEOF`,
    );
  }
  if (existsSync(`${dir}/postmaster.pid`)) return;
  pgTool(`pg_ctl start -w -D ${dir} -l ${dir}/server.log -o "-p ${port} -k /tmp -c listen_addresses=127.0.0.1"`);
}

type Table = { name: string; key: string | null; columns: string[] };

/** The source's tables; `key` is the distribution column of the company-scoped ones. */
async function tablesOf(url: string): Promise<Table[]> {
  const r = await query(
    url,
    `select c.relname as name,
       case when c.relname = 'legal_entities' then 'id'
            when c.relname <> 'members'
             and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'legal_entity_id' and not a.attisdropped)
             and not exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped)
            then 'legal_entity_id' end as key,
       array(select quote_ident(a.attname) from pg_attribute a
             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
             order by a.attnum) as columns
     from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' order by 1`,
  );
  return r.rows as Table[];
}

async function setup(): Promise<void> {
  for (const port of NODES) startNode(port);
  const tables = await tablesOf(SOURCE.href);
  const distributed = tables.filter((t) => t.key);
  log(`${distributed.length} distributed tables, ${tables.length - distributed.length} reference and other tables`);
  // The hash of the partition bounds, usable in the source: a partitioned table of the key's type.
  await query(
    SOURCE.href,
    `create schema if not exists fdw_bench;
    create table if not exists fdw_bench.h (k bigint) partition by hash (k)`,
  );
  const admin = new URL(SOURCE.href);
  admin.pathname = '/postgres';
  await query(admin.href, `drop database if exists ${args.coordinator}`);
  await query(admin.href, `create database ${args.coordinator}`);
  for (const port of NODES) {
    await query(`postgres://postgres@127.0.0.1:${port}/postgres`, `drop database if exists ${NODE_DB}`);
    await query(`postgres://postgres@127.0.0.1:${port}/postgres`, `create database ${NODE_DB}`);
  }
  const targets = [COORD.href, ...NODES.map(nodeUrl)];
  // pg_dump --schema leaves the extensions out: create them first, in the schema they are in.
  const extensions = (
    await query(
      SOURCE.href,
      `select e.extname, n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname <> 'plpgsql'`,
    )
  ).rows as { extname: string; nspname: string }[];
  for (const t of targets) {
    await query(
      t,
      extensions.map((e) => `create extension if not exists ${e.extname} schema ${e.nspname}`).join(';\n') ||
        'select 1',
    );
  }
  const dump = (section: string) => `pg_dump ${conn(SOURCE)} --schema=public --section=${section}`;
  for (const t of targets) {
    execSync(
      `${dump('pre-data')} | grep -v '^CREATE SCHEMA public;' | psql -q ${conn(t)} -v ON_ERROR_STOP=1 >/dev/null`,
    );
  }
  log('schema copied (pre-data)');
  for (const t of tables) {
    const started = Date.now();
    const cols = t.columns.join(', ');
    const copies = t.key
      ? NODES.map(
          (port, i) =>
            `psql ${conn(SOURCE)} -c "\\copy (select ${cols} from public.${t.name} where satisfies_hash_partition('fdw_bench.h'::regclass, ${NODES.length}, ${i}, ${t.key})) to stdout" | psql ${conn(nodeUrl(port))} -c "\\copy public.${t.name} (${cols}) from stdin"`,
        )
      : targets.map(
          (u) =>
            `psql ${conn(SOURCE)} -c "\\copy public.${t.name} (${cols}) to stdout" | psql ${conn(u)} -c "\\copy public.${t.name} (${cols}) from stdin"`,
        );
    // The nodes load at once (each its own server).
    execSync(`${copies.map((c) => `(${c} >/dev/null) &`).join('\n')}\nwait`, { shell: '/bin/bash' });
    const seconds = (Date.now() - started) / 1000;
    if (seconds > 5) log(`${t.name} copied in ${seconds.toFixed(0)} s`);
  }
  log('data copied; building indexes and keys (post-data)…');
  execSync(`${targets.map((t) => `(${dump('post-data')} | psql -q ${conn(t)} >/dev/null 2>&1) &`).join('\n')}\nwait`, {
    shell: '/bin/bash',
  });
  for (const port of NODES) await query(nodeUrl(port), 'vacuum analyze');
  // The coordinator: each distributed table becomes hash partitions on the nodes.
  const servers = NODES.map(
    (port, i) => `create server s${i} foreign data wrapper postgres_fdw
      options (host '127.0.0.1', port '${port}', dbname '${NODE_DB}', async_capable 'true', fetch_size '1000');
    create user mapping for postgres server s${i} options (user 'postgres');`,
  );
  const statements = [
    'create extension if not exists postgres_fdw',
    ...servers,
    `alter database ${args.coordinator} set enable_partitionwise_join = on`,
    `alter database ${args.coordinator} set enable_partitionwise_aggregate = on`,
  ];
  for (const t of distributed) {
    const parts = NODES.map(
      (_, i) => `create foreign table public.${t.name}__s${i} partition of public.${t.name}
        for values with (modulus ${NODES.length}, remainder ${i}) server s${i} options (schema_name 'public', table_name '${t.name}')`,
    );
    statements.push(
      `alter table public.${t.name} rename to ${t.name}__local`,
      `create table public.${t.name} (like public.${t.name}__local including defaults) partition by hash (${t.key})`,
      ...parts,
      `drop table public.${t.name}__local cascade`,
    );
  }
  const client = new pg.Client({ connectionString: COORD.href });
  await client.connect();
  const dropped: string[] = [];
  client.on('notice', (n) => {
    if (n.message) dropped.push(n.detail ? `${n.message}: ${n.detail.replaceAll('\n', ', ')}` : n.message);
  });
  for (const s of statements) await client.query(s);
  await client.query('vacuum analyze');
  await client.end();
  log(`coordinator ready; dropped with the local tables: ${[...new Set(dropped)].join('; ') || 'nothing'}`);
}

async function measureAll(): Promise<void> {
  const single = await openPostgres(SOURCE.href, 10, { statementTimeoutMs: 120_000 });
  const coord = await openPostgres(COORD.href, 10, { statementTimeoutMs: 120_000 });
  const rounds = Number(args.rounds);
  const lines = [
    `| query class | shards | single node p50 / p95 ms | 3 fdw shards p50 / p95 ms | ratio p50 | ratio p95 |`,
    '|---|---|---:|---:|---:|---:|',
  ];
  const loads = [loadavg()[0]];
  try {
    const [refSingle, refCoord] = [await loadReference(single), await loadReference(coord)];
    const classes = queryClasses(await inputsFrom(single, Number(args.inputs)));
    for (const c of classes) {
      const a: number[] = [];
      const b: number[] = [];
      let failure = '';
      try {
        for (const input of c.inputs) {
          await c.run(single, refSingle, input);
          await c.run(coord, refCoord, input);
        }
        for (let round = 0; round < rounds; round++) {
          for (const input of c.inputs) {
            let t = performance.now();
            await c.run(single, refSingle, input);
            a.push(performance.now() - t);
            t = performance.now();
            await c.run(coord, refCoord, input);
            b.push(performance.now() - t);
          }
        }
      } catch (error) {
        failure = String(error).split('\n')[0].slice(0, 120);
      }
      if (failure) {
        lines.push(`| ${c.name} | ${c.shards} | — | ${failure} | — | — |`);
        log(`${c.name}: ${failure}`);
        continue;
      }
      const [a50, a95, b50, b95] = [percentile(a, 50), percentile(a, 95), percentile(b, 50), percentile(b, 95)];
      const row = `| ${c.name} | ${c.shards} | ${a50.toFixed(2)} / ${a95.toFixed(2)} | ${b50.toFixed(2)} / ${b95.toFixed(2)} | ${(b50 / a50).toFixed(1)}× | ${(b95 / a95).toFixed(1)}× |`;
      lines.push(row);
      log(row);
      loads.push(loadavg()[0]);
    }
  } finally {
    await single.close();
    await coord.close();
  }
  const companies = (await query(SOURCE.href, 'select count(*)::int as n from legal_entities')).rows[0].n as number;
  console.log(
    [
      `${companies.toLocaleString('en')} companies; ${args.inputs} inputs a class × ${rounds} rounds, single node and shards alternating call by call; load (1 min) during the run ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on 2 cores.`,
      '',
      ...lines,
    ].join('\n'),
  );
}

if (args.stop) {
  for (const port of NODES)
    if (existsSync(`${dataDir(port)}/postmaster.pid`)) pgTool(`pg_ctl stop -w -D ${dataDir(port)} -m fast`);
} else if (args.setup) await setup();
else await measureAll();
