import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { inlineScript } from '../../app/islands/inline-script.ts';

// Security headers on every response (docs/decisions/0012-security-headers.md): helmet sets them
// when a request arrives, on the raw response (its middleware built once: ADR 0044), so pages, the API, static files, redirects, 404s
// and errors all carry them. The Content-Security-Policy allows scripts from this site, the
// islands pages inline (by their hashes: the same text on every page, so cached pages keep
// working) and, on the pages that hydrate, React Router's own inline scripts (by a nonce of the
// request, which such pages are never cached with).

const ISLANDS_DIR = fileURLToPath(new URL('../../app/islands/', import.meta.url));

/** One year: a browser that saw the site over HTTPS keeps to HTTPS. */
const HSTS = 'max-age=31536000';

const nonces = new WeakMap<IncomingMessage, string>();

/** This request's CSP nonce (made on first use). */
export function cspNonce(request: FastifyRequest): string {
  return nonceOf(request.raw);
}

function nonceOf(raw: IncomingMessage): string {
  let nonce = nonces.get(raw);
  if (!nonce) {
    nonce = freshNonce();
    nonces.set(raw, nonce);
  }
  return nonce;
}

/** Random bytes drawn 256 nonces at a time: one call to the generator instead of one a response (ADR 0044). */
const NONCE_BYTES = 16;
let entropy = Buffer.alloc(0);
let entropyAt = 0;

/** 16 random bytes never handed out before, as base64. */
function freshNonce(): string {
  if (entropyAt + NONCE_BYTES > entropy.length) {
    entropy = randomBytes(NONCE_BYTES * 256);
    entropyAt = 0;
  }
  const nonce = entropy.toString('base64', entropyAt, entropyAt + NONCE_BYTES);
  entropyAt += NONCE_BYTES;
  return nonce;
}

/** Stands for the nonce while helmet writes the policy once (base64 never holds it). */
const NONCE_SLOT = 'slot-of-the-request';

/** What helmet did to a response's headers, in order: recorded once, replayed on each response. */
type HeaderStep = { name: string; value: string } | { name: string; remove: true };

/**
 * Runs helmet's middleware once on a stand-in response and records its headers. The policy's
 * nonce is NONCE_SLOT there; each response gets its own in its place.
 */
function recordHeaders(middleware: ReturnType<typeof helmet>): HeaderStep[] {
  const steps: HeaderStep[] = [];
  const response = {
    setHeader: (name: string, value: string) => steps.push({ name, value: String(value) }),
    removeHeader: (name: string) => steps.push({ name, remove: true }),
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return steps;
}

/** `'sha256-…'` sources for every island, as pages inline it (app/islands/inline-script.ts). */
export function islandScriptHashes(): string[] {
  return readdirSync(ISLANDS_DIR)
    .filter((file) => file.endsWith('.js'))
    .sort()
    .map((file) => {
      const text = inlineScript(readFileSync(`${ISLANDS_DIR}${file}`, 'utf8'));
      return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    });
}

/**
 * Registers the headers. In development (`reportOnly`) the policy only reports: Vite's hot reload
 * injects inline scripts of its own.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: {
    reportOnly: boolean;
    /** The payment provider's origins: Paddle.js and its checkout frame (docs/decisions/0019-billing.md). */
    origins?: { script: string[]; frame: string[]; connect: string[] };
  },
): Promise<void> {
  const origins = options.origins ?? { script: [], frame: [], connect: [] };
  // Helmet writes the headers once, here; each response gets them with its own nonce. @fastify/helmet
  // built helmet's whole middleware (every directive parsed and checked) again on each request, and
  // helmet itself writes the policy again on each while a directive is a function (ADR 0044).
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      reportOnly: options.reportOnly,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...islandScriptHashes(), `'nonce-${NONCE_SLOT}'`, ...origins.script],
        scriptSrcAttr: ["'none'"],
        // Style attributes carry computed values (table column widths, chart colours), and
        // Swagger UI has a <style> of its own: styles cannot run code (ADR 0012).
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...origins.connect],
        ...(origins.frame.length > 0 ? { frameSrc: ["'self'", ...origins.frame] } : {}),
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // Not no-referrer: browsers then send `Origin: null` on form posts, which the CSRF check refuses.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only over HTTPS (below): over plain HTTP the header means nothing, and on localhost it would
    // pin every local site to HTTPS.
    strictTransportSecurity: false,
  });
  const steps = recordHeaders(middleware);
  const withNonce = steps.flatMap((step) =>
    'value' in step && step.value.includes(NONCE_SLOT)
      ? [{ name: step.name, parts: step.value.split(NONCE_SLOT) }]
      : [],
  );
  if (withNonce.length !== 1 || withNonce[0].parts.length !== 2) throw new Error('the policy must name the nonce once');
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const step of steps) {
      if ('remove' in step) raw.removeHeader(step.name);
      else if (step.name === withNonce[0].name) {
        raw.setHeader(step.name, withNonce[0].parts.join(nonceOf(request.raw)));
      } else raw.setHeader(step.name, step.value);
    }
    if (request.protocol === 'https') raw.setHeader('strict-transport-security', HSTS);
    done();
  });
}

/**
 * Lets any site show this response in a frame: no X-Frame-Options, `frame-ancestors *`. For the
 * reconciliation preview alone (docs/decisions/0034-reconciliation-cross-origin.md): a public,
 * read-only card with no form and no signed-in state, which tools like OpenRefine frame.
 */
export function allowFramingByAnySite(reply: FastifyReply): void {
  reply.raw.removeHeader('x-frame-options');
  for (const name of ['content-security-policy', 'content-security-policy-report-only']) {
    const policy = reply.raw.getHeader(name);
    if (typeof policy === 'string') {
      reply.raw.setHeader(name, policy.replace(/frame-ancestors [^;]*/, 'frame-ancestors *'));
    }
  }
}
