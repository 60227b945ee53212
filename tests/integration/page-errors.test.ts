// An AppError escaping a page's loader is answered as the API answers it (app/page-errors.server.ts):
// the status of its code (core/errors/app-error.ts httpStatus) and the root error boundary's page
// in the reader's language, never a 500. The real build, with the pricing page's loader made to
// throw, is served the way server/plugins/ssr.ts serves it. Needs `npx react-router build`.
import { fileURLToPath } from 'node:url';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeringAppErrors } from '../../app/page-errors.server.ts';
import { authContext, servicesContext } from '../../app/services.ts';
import { AppError, type ErrorCode } from '../../core/errors/app-error.ts';
import type { AppServices } from '../../core/services.ts';
import { textOf } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

const BUILD = fileURLToPath(new URL('../../build/server/index.js', import.meta.url));
const ROUTE = 'routes/info/pricing';

let database: TestDatabase;
let build: ServerBuild;
beforeAll(async () => {
  database = await openTestDatabase();
  build = (await import(BUILD)) as ServerBuild;
});
afterAll(() => database?.db.close());

/** The pricing page, in a copy of the build whose loader throws `error`. */
async function pageThrowing(error: unknown, path = '/info/pricing/') {
  const route = build.routes[ROUTE];
  if (!route) throw new Error(`no route ${ROUTE}`);
  const loader = async () => {
    throw error;
  };
  const routes = { ...build.routes, [ROUTE]: { ...route, module: { ...route.module, loader } } };
  const handler = createRequestHandler(answeringAppErrors({ ...build, routes }), 'production');
  const context = new RouterContextProvider();
  context.set(servicesContext, {
    db: database.db,
    reference: database.reference,
    siteUrl: 'http://localhost',
  } as AppServices);
  context.set(authContext, null);
  const response = await handler(new Request(`http://localhost${path}`), context);
  return { status: response.status, text: textOf(await response.text()) };
}

describe('an AppError escaping a page loader', () => {
  it('is a 404 page in the reader’s language for not_found', async () => {
    const en = await pageThrowing(new AppError('not_found', 'No such thing.'));
    expect(en.status).toBe(404);
    expect(en.text).toContain('Page not found');
    const de = await pageThrowing(new AppError('not_found', 'No such thing.'), '/de/info/pricing/');
    expect(de.status).toBe(404);
    expect(de.text).toContain('Seite nicht gefunden');
    const fr = await pageThrowing(new AppError('not_found', 'No such thing.'), '/fr/info/pricing/');
    expect(fr.text).toContain('Page introuvable');
  });

  it('takes the status the API gives each code, with a page that says what happened', async () => {
    const cases: [ErrorCode, number, string][] = [
      ['bad_request', 400, 'This request cannot be answered'],
      ['unauthorized', 401, 'Sign in'],
      ['payment_required', 402, 'Not enough credits'],
      ['forbidden', 403, 'Not allowed'],
      ['conflict', 409, 'This cannot be done now'],
      ['rate_limited', 429, 'Too many requests'],
      ['unavailable', 503, 'Registra is briefly unavailable'],
    ];
    for (const [code, status, title] of cases) {
      const page = await pageThrowing(new AppError(code, `q: a ${code} message`));
      expect(page.status, code).toBe(status);
      expect(page.text, code).toContain(title);
    }
    // Too few credits offers the prices; a bad request says what was wrong, as the API does.
    expect((await pageThrowing(new AppError('payment_required', 'costs 2'), '/fr/info/pricing/')).text).toContain(
      'Voir les tarifs',
    );
    expect((await pageThrowing(new AppError('bad_request', 'q: too long'))).text).toContain('q: too long');
  });

  it('stays a 500 that tells nothing for internal errors and anything that is not an AppError', async () => {
    for (const error of [new AppError('internal', 'secret detail'), new Error('secret detail')]) {
      const page = await pageThrowing(error);
      expect(page.status).toBe(500);
      expect(page.text).toContain('Something went wrong');
      expect(page.text).not.toContain('secret detail');
    }
  });
});
