import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './schema.ts';

/**
 * Whether a changes webhook's `Registra-Signature` header (`t=<unix seconds>,v1=<hex>`) is the
 * HMAC-SHA256, keyed with the webhook's secret, of `<t>.<raw body>`, and `t` is at most
 * `toleranceSeconds` away from now (an old request replayed is refused). Pass the body exactly as
 * received, before any JSON parsing.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
  { toleranceSeconds = 300, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const parts = new Map(
    (header ?? '').split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = parts.get('t') ?? '';
  const v1 = parts.get('v1') ?? '';
  if (!/^\d+$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(now / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

/** The payload of a verified delivery. */
export function parseWebhookPayload(rawBody: string): components['schemas']['WebhookPayload'] {
  return JSON.parse(rawBody) as components['schemas']['WebhookPayload'];
}
