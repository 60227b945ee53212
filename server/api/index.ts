import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app/services.ts';

/** Registers every JSON route under /api. */
export async function registerApi(api: FastifyInstance, _services: AppServices): Promise<void> {
  api.get('/health', async () => ({ status: 'ok' }));
}
