// The bare comparison server of bench/cpu.ts (docs/decisions/0040-cpu-per-request.md): Fastify and
// a node-postgres pool, nothing else. For each path it knows, it runs the statements the app's own
// calls sent for that request (recorded by bench/cpu.ts: the same SQL, the same parameters, in the
// same waves — statements issued together run together) and answers their rows as JSON. It is the
// floor under the app's HTTP layers: what any server sending that SQL has to spend.
//
// Input: the path of a JSON file `{ [path]: Plan }` as argv[2]; DATABASE_URL; PORT. Prints "ready".

import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { type Plan, replayPlan } from './sql-replay.ts';

const plans = new Map(Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, Plan>));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
app.get('/*', async (request, reply) => {
  const plan = plans.get(request.url);
  if (!plan) return reply.status(404).send({ error: 'unknown path' });
  return { rows: await replayPlan(pool, plan) };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
