import { isIP } from 'node:net';
import { z } from 'zod';
import type { PaddleSettings } from '../core/billing/payment-provider.ts';
import type { MailSettings } from '../core/email/mailer.ts';
import { type LegalNotice, legalNoticeOf } from '../core/legal/legal-notice.ts';
import type { HelpDeskSettings } from '../core/support/help-desk.ts';
import type { TrustProxy } from './app.ts';

const Env = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  /** Where PGlite keeps its data when DATABASE_URL is not set. */
  DATA_DIR: z.string().default('var/pglite'),
  /** Where the bulk data snapshots are written and served from (ADR 0036). */
  BULK_DATA_DIR: z.string().min(1).default('var/bulk-data'),
  /** Demo companies the database should hold (default: see demoCompanies). */
  SEED_COMPANIES: z.coerce.number().int().min(0).optional(),
  SEED: z.coerce.number().int().default(1),
  SITE_URL: z.string().url().default('http://localhost:3000'),
  /** Seconds a rendered page is kept for anonymous readers (0: off). */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(86400).default(60),
  /** The most memory the page cache may take, in megabytes (bodies and headers). */
  PAGE_CACHE_MB: z.coerce.number().int().min(1).max(65536).default(64),
  /** PostgreSQL: the longest a request's statement may run, in seconds (0: no bound). Start-up's own work has none. */
  STATEMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /**
   * Which proxies' X-Forwarded-For/-Proto/-Host to believe: none (the default), a hop count, or
   * their addresses and CIDR ranges, comma-separated (`10.0.0.1,192.168.0.0/16`).
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context): TrustProxy => {
      const trust = trustProxyOf(value);
      if (trust === null) {
        context.addIssue({
          code: 'custom',
          message:
            'a number of proxy hops (1) or proxy addresses and CIDR ranges separated by commas (10.0.0.1,192.168.0.0/16)',
        });
        return z.NEVER;
      }
      return trust;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Outgoing mail: an SMTP URL (smtp://user:pass@host:587, smtps://… for TLS on 465), or the parts below. */
  SMTP_URL: z.string().url().optional(),
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  /** The From header of every email. */
  MAIL_FROM: z.string().min(3).default('Registra <no-reply@localhost>'),
  /**
   * Run the job worker (monitoring reports, digests) inside the server: `on` (default) or `off`
   * when workers run as processes of their own (`npm run cli -- jobs work`).
   */
  JOBS_WORKER: z.enum(['on', 'off']).default('on'),
  /**
   * On PostgreSQL, answer each section's first page once before listening (`on`, default), so that
   * the first visitor after a start does not pay for what is per process (ADR 0041); `off` skips it.
   */
  WARM_UP: z.enum(['on', 'off']).default('on'),
  /**
   * `1` lets webhooks post to loopback and private addresses (development and tests only): by
   * default a webhook goes to public hosts only (docs/decisions/0018-change-feed-and-webhooks.md).
   */
  WEBHOOKS_ALLOW_PRIVATE_HOSTS: z.enum(['0', '1']).default('0'),
  // Paddle (docs/decisions/0019-billing.md): all three keys, or none (the sandbox provider).
  PADDLE_API_KEY: z.string().min(1).optional(),
  PADDLE_CLIENT_TOKEN: z.string().min(1).optional(),
  PADDLE_WEBHOOK_SECRET: z.string().min(1).optional(),
  PADDLE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  /** Paddle price ids of the catalogue's offers: `credits-10=pri_…,plan-basic=pri_…`. */
  PADDLE_PRICES: z.string().optional(),
  /**
   * Multiplies the published /api limits per plan (core/limits.ts, ADR 0020): 1 by default; a
   * load test from one address raises it.
   */
  API_LIMIT_FACTOR: z.coerce.number().int().min(1).max(1_000_000).default(1),
  /**
   * App processes serving one port (Node's cluster; docs/decisions/0024-processes-and-replicas.md).
   * More than one needs DATABASE_URL: PGlite is one process's database.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * PostgreSQL streaming replicas for reads that may be a moment stale (search, profiles,
   * directories, the public data API): their URLs, comma-separated (db/replicas.ts).
   */
  DATABASE_REPLICA_URLS: z
    .string()
    .optional()
    .transform((value, context): string[] => {
      const urls = (value ?? '')
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean);
      for (const url of urls)
        if (!/^postgres(ql)?:\/\/./.test(url) || !URL.canParse(url))
          context.addIssue({ code: 'custom', message: `not a PostgreSQL URL: ${url.replace(/:[^:@/]*@/, ':***@')}` });
      return urls;
    }),
  /**
   * Who runs support tickets (ADR 0021): `built-in` (default: our tables and /support-desk/) or
   * `zammad`, which needs ZAMMAD_URL and ZAMMAD_TOKEN (an agent's access token).
   */
  HELPDESK: z.enum(['built-in', 'zammad']).default('built-in'),
  ZAMMAD_URL: z.string().url().optional(),
  ZAMMAD_TOKEN: z.string().min(1).optional(),
  /** The token Zammad signs its webhook with (X-Hub-Signature): answers reach users at once. */
  ZAMMAD_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** The Zammad group new tickets go to. */
  ZAMMAD_GROUP: z.string().min(1).default('Users'),
  /** The longest a call to the help desk may take before the user is told it is unavailable. */
  HELPDESK_TIMEOUT_SECONDS: z.coerce.number().min(1).max(60).default(8),
  /** A replica further behind the primary than this serves no reads until it has caught up. */
  DATABASE_REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  // The legal notice (/info/legal-notice/, core/legal/legal-notice.ts): who operates the site.
  // None set: the page says the operator has not set it. Operator, address and email go together.
  /** The operator's full name, a company with its legal form or a person: `Example Data GmbH`. */
  LEGAL_OPERATOR: z.string().trim().max(200).optional(),
  /** The operator's postal address, lines separated by `;`: `Musterstraße 1; 10115 Berlin; Germany`. */
  LEGAL_ADDRESS: z.string().trim().max(500).optional(),
  LEGAL_EMAIL: z.string().trim().email().optional(),
  LEGAL_PHONE: z
    .string()
    .trim()
    .regex(/^\+?[\d ()/.-]{4,30}$/, 'a phone number: digits, spaces, ()/.- and a leading +')
    .optional(),
  /** Who may represent the operator (managing directors), where the law asks for it. */
  LEGAL_REPRESENTATIVE: z.string().trim().max(300).optional(),
  /** The register entry: `Amtsgericht Berlin-Charlottenburg, HRB 123456`. */
  LEGAL_REGISTER: z.string().trim().max(300).optional(),
  /** VAT identification number: a country code and 2 to 13 letters or digits (`DE123456789`). */
  LEGAL_VAT_ID: z
    .string()
    .transform((value) => value.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{2}[A-Z0-9+*]{2,13}$/, 'a VAT number: a country code and 2 to 13 letters or digits'))
    .optional(),
});

export type Env = z.infer<typeof Env>;

/** Reads and validates the environment once; a bad value stops start-up with a message naming it. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = Env.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  if (result.data.WEB_CONCURRENCY > 1 && !result.data.DATABASE_URL)
    throw new Error(
      `Invalid environment: WEB_CONCURRENCY: ${result.data.WEB_CONCURRENCY} processes need a PostgreSQL server (DATABASE_URL); the embedded PGlite database belongs to one process — leave WEB_CONCURRENCY at 1 or set DATABASE_URL`,
    );
  if (result.data.DATABASE_REPLICA_URLS.length > 0 && !result.data.DATABASE_URL)
    throw new Error('Invalid environment: DATABASE_REPLICA_URLS: read replicas need their primary in DATABASE_URL');
  return result.data;
}

/** The Paddle settings when its keys are configured (all three, or a start-up error); null: the sandbox provider. */
export function paddleSettings(env: Env): PaddleSettings | null {
  const keys = [env.PADDLE_API_KEY, env.PADDLE_CLIENT_TOKEN, env.PADDLE_WEBHOOK_SECRET];
  if (keys.every((k) => k === undefined)) return null;
  if (!env.PADDLE_API_KEY || !env.PADDLE_CLIENT_TOKEN || !env.PADDLE_WEBHOOK_SECRET) {
    throw new Error('Invalid environment: PADDLE_API_KEY, PADDLE_CLIENT_TOKEN and PADDLE_WEBHOOK_SECRET go together');
  }
  return {
    apiKey: env.PADDLE_API_KEY,
    clientToken: env.PADDLE_CLIENT_TOKEN,
    webhookSecret: env.PADDLE_WEBHOOK_SECRET,
    environment: env.PADDLE_ENVIRONMENT,
    prices: parsePaddlePrices(env.PADDLE_PRICES),
  };
}

/** The help desk of the environment (ADR 0021); a start-up error names what Zammad is missing. */
export function helpDeskSettings(env: Env): HelpDeskSettings {
  if (env.HELPDESK === 'built-in') return { kind: 'built-in' };
  const missing = [env.ZAMMAD_URL ? null : 'ZAMMAD_URL', env.ZAMMAD_TOKEN ? null : 'ZAMMAD_TOKEN'].filter(Boolean);
  if (missing.length > 0 || !env.ZAMMAD_URL || !env.ZAMMAD_TOKEN) {
    throw new Error(
      `Invalid environment: HELPDESK=zammad needs ${missing.join(' and ')} (the Zammad instance's URL, e.g. https://help.example.com, and an agent's access token)`,
    );
  }
  return {
    kind: 'zammad',
    url: env.ZAMMAD_URL,
    token: env.ZAMMAD_TOKEN,
    group: env.ZAMMAD_GROUP,
    timeoutMs: env.HELPDESK_TIMEOUT_SECONDS * 1000,
    webhookSecret: env.ZAMMAD_WEBHOOK_SECRET,
  };
}

/** The operator's legal notice (null: not set); a start-up error names what a partial one is missing. */
export function legalNoticeSettings(env: Env): LegalNotice | null {
  return legalNoticeOf({
    LEGAL_OPERATOR: env.LEGAL_OPERATOR,
    LEGAL_ADDRESS: env.LEGAL_ADDRESS,
    LEGAL_EMAIL: env.LEGAL_EMAIL,
    LEGAL_PHONE: env.LEGAL_PHONE,
    LEGAL_REPRESENTATIVE: env.LEGAL_REPRESENTATIVE,
    LEGAL_REGISTER: env.LEGAL_REGISTER,
    LEGAL_VAT_ID: env.LEGAL_VAT_ID,
  });
}

/**
 * Demo companies the database should hold: SEED_COMPANIES when given; else 20,000 in PGlite (the
 * demo that `npm start` is), none in a server database, which gets demo data only when asked.
 */
export function demoCompanies(env: Env): number {
  return env.SEED_COMPANIES ?? (env.DATABASE_URL ? 0 : 20_000);
}

/** The mail settings of the environment: without SMTP_URL or SMTP_HOST, emails stay in the development outbox. */
export function mailSettings(env: Env): MailSettings {
  return {
    smtpUrl: env.SMTP_URL,
    host: env.SMTP_HOST,
    port: env.SMTP_PORT,
    user: env.SMTP_USER,
    pass: env.SMTP_PASS,
    from: env.MAIL_FROM,
  };
}

/** Names proxy-addr knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as a setting: empty or `false` trusts nobody, a whole number that many hops, else
 * every comma-separated item must be an IP address, an address with a prefix length or netmask
 * (`10.0.0.0/8`, `10.0.0.0/255.0.0.0`), or loopback, linklocal or uniquelocal. Null when it is none of these.
 */
export function trustProxyOf(value: string | undefined): TrustProxy | null {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text) <= 100 ? Number(text) : null;
  const items = text.split(',').map((item) => item.trim());
  return items.every(isProxyAddress) ? items : null;
}

function isProxyAddress(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address, range, ...rest] = item.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(range) === 4;
}

/** `PADDLE_PRICES`: `credits-10=pri_…,plan-basic=pri_…`. */
function parsePaddlePrices(text: string | undefined): Record<string, string> {
  const prices: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const [offer, price] = pair.split('=').map((s) => s.trim());
    if (offer && price) prices[offer] = price;
  }
  return prices;
}
