import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../core/errors/app-error.ts';
import type { AppServices } from '../../core/services.ts';
import type { Db } from '../../db/client.ts';
import { type ApiRoutes, getRoute } from './route.ts';

/** Readiness waits this long for the database's answer (a load balancer's check must not hang). */
export const READY_TIMEOUT_MS = 2_000;

/**
 * Liveness and readiness, for a process supervisor and a load balancer: `/health` answers while
 * the process serves (restarting it would not bring the database back); `/health/ready` also asks
 * the database and is a 503 while it is away, so that traffic goes to another instance meanwhile.
 */
export function registerHealthRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  getRoute(
    api,
    routes,
    {
      url: '/health',
      operationId: 'getHealth',
      summary: 'Liveness check',
      description:
        'Answers while the process serves, whether or not the database is reachable (see /api/health/ready).',
      tags: ['Meta'],
      query: z.strictObject({}),
      response: z.object({ status: z.literal('ok') }),
    },
    async () => ({ status: 'ok' as const }),
  );
  getRoute(
    api,
    routes,
    {
      url: '/health/ready',
      operationId: 'getReadiness',
      summary: 'Readiness check',
      description: `Ready to serve: the database answers within ${READY_TIMEOUT_MS / 1000} s. A 503 (code \`unavailable\`) while it does not.`,
      tags: ['Meta'],
      query: z.strictObject({}),
      response: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
      errors: [503],
    },
    async () => {
      if (!(await databaseAnswers(services.db))) throw new AppError('unavailable', 'the database does not answer');
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );
}

/** True when `select 1` answers in time. A late answer is still awaited in the background, never left unhandled. */
async function databaseAnswers(db: Db): Promise<boolean> {
  const probe = sql`select 1`.execute(db.kysely).then(
    () => true,
    () => false,
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}
