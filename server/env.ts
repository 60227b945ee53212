import { z } from 'zod';

const Env = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  /** Where PGlite keeps its data when DATABASE_URL is not set. */
  DATA_DIR: z.string().default('var/pglite'),
  /** Companies generated on first start of an empty database. */
  SEED_COMPANIES: z.coerce.number().int().min(0).default(20000),
  SEED: z.coerce.number().int().default(1),
  SITE_URL: z.string().url().default('http://localhost:3000'),
  /** Seconds a rendered page is kept for anonymous readers (0: off). */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(86400).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof Env>;

/** Reads and validates the environment once; a bad value stops start-up with a message naming it. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = Env.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return result.data;
}
