import type { FastifyReply } from 'fastify';

/**
 * The response header that says a request spent credits, with the balance after it
 * (docs/decisions/0030-sign-in-finishes-and-private-caching.md): API clients read it, and the
 * pages' live-balance island (app/islands/balance.js) updates the header when its page's own fetch
 * gets one. Set by every API answer that spends.
 */
export const BALANCE_HEADER = 'registra-balance';

export function tellBalance(reply: FastifyReply, balance: number): FastifyReply {
  return reply.header(BALANCE_HEADER, String(balance));
}
