import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { companyIdOfUri } from '../../core/companies/company-uri.ts';
import { readCompanies } from '../../core/companies/parts/company-part.ts';
import { identifiersPart } from '../../core/companies/parts/identifiers.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { escapeHtml } from '../../core/html/escape-html.ts';
import { MAX_MATCH_QUERIES } from '../../core/limits.ts';
import {
  extend,
  parseExtendQuery,
  parseQueryBatch,
  parseSuggestCursor,
  proposeProperties,
  reconcile,
  reconciliationManifest,
  suggestEntities,
  suggestProperties,
} from '../../core/reconciliation/reconcile.ts';
import { displayName } from '../../core/reference/reference-data.ts';
import type { AppServices } from '../../core/services.ts';
import { ACCESS_PARAMETERS, API_KEY_PARAMETER } from '../plugins/reconciliation-access.ts';
import { allowFramingByAnySite } from '../plugins/security-headers.ts';
import { requireScope } from './auth.ts';
import { type ApiRoutes, searchParams } from './route.ts';

// The W3C Reconciliation Service API 0.2 at /api/reconcile (ADR 0020): GET without parameters is
// the manifest; `queries=` (GET, or a form POST as OpenRefine sends it) reconciles a batch;
// `extend=` fetches properties; suggest, propose and preview beside it. Form bodies are parsed in
// this scope only: the rest of the API takes JSON. Other origins may call every route here, by
// CORS or JSONP, anonymously or with a key (server/plugins/reconciliation-access.ts, ADR 0034).

const TAGS = ['Reconciliation'];
const FORM_LIMIT = 1024 * 1024;
const anyJson = z.object({}).loose();

/** The parameters every reconciliation route takes (ADR 0034), for the OpenAPI document. */
const access = {
  callback: z
    .string()
    .optional()
    .describe(
      'JSONP (GET only): the answer is `callback(json)` as application/javascript. A JavaScript function name, else 400.',
    ),
  [API_KEY_PARAMETER]: z
    .string()
    .optional()
    .describe('An API key, as `Authorization: Bearer` takes it (the W3C apiKey-in-query security scheme).'),
};
const cursor = z
  .string()
  .optional()
  .describe('How many suggestions to skip (the next page starts at the number already shown); ten a page.');

export function registerReconcileRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db, reference } = services;
  const site = services.siteUrl.replace(/\/$/, '');
  const base = `${site}/api/reconcile`;
  const params = z.strictObject({
    queries: z
      .string()
      .optional()
      .describe(
        'A JSON object of queries by key: `{"q0":{"query":"Acme GmbH","properties":[{"pid":"country","v":"DE"}]}}`.',
      ),
    extend: z.string().optional().describe('A data extension query: `{"ids":["…"],"properties":[{"id":"lei"}]}`.'),
    ...access,
  });
  routes.push(
    {
      url: '/reconcile',
      operationId: 'reconcile',
      summary: 'Reconciliation service (W3C 0.2): manifest, queries and data extension',
      description:
        `Without parameters: the service manifest. With \`queries\`: candidates per query (id, name, score 0–1, match, features), at most ${MAX_MATCH_QUERIES} queries; ` +
        'properties: country, registration_number, lei, vat, domain, address. A query that is an id the service returns (or the profile’s address) ' +
        'answers that company alone (score 1, match); one that is an LEI or a registration number puts the companies holding it first. ' +
        'With `extend`: the properties asked of each company. ' +
        'The same as a form POST (application/x-www-form-urlencoded) with `queries=` or `extend=`. ' +
        'Every reconciliation route answers other origins (CORS: `Access-Control-Allow-Origin: *`, preflight by OPTIONS; JSONP by `callback`); ' +
        'a request from another origin or by JSONP is anonymous or signed by an API key, never by the session cookie.',
      tags: TAGS,
      query: params,
      response: anyJson,
      errors: [429],
    },
    {
      url: '/reconcile',
      method: 'post',
      operationId: 'reconcileForm',
      summary: 'Reconciliation service (W3C 0.2): queries or data extension as a form',
      description:
        'A form body (application/x-www-form-urlencoded) with `queries=` or `extend=`, as GET /api/reconcile takes them (OpenRefine sends this). Another body is a 400.',
      tags: TAGS,
      query: z.strictObject({ [API_KEY_PARAMETER]: access[API_KEY_PARAMETER] }),
      body: params,
      bodyType: 'application/x-www-form-urlencoded',
      response: anyJson,
      errors: [429],
    },
    {
      url: '/reconcile/suggest/entity',
      operationId: 'reconcileSuggestEntity',
      summary: 'Reconciliation: companies whose name starts with a prefix',
      description:
        'Ten a page, best first (at most 200 in all); an id or profile address typed whole suggests that company.',
      tags: TAGS,
      query: z.strictObject({ prefix: z.string().describe('What was typed.'), cursor, ...access }),
      response: anyJson,
    },
    {
      url: '/reconcile/suggest/property',
      operationId: 'reconcileSuggestProperty',
      summary: 'Reconciliation: properties matching a prefix',
      tags: TAGS,
      query: z.strictObject({ prefix: z.string().describe('What was typed.'), cursor, ...access }),
      response: anyJson,
    },
    {
      url: '/reconcile/extend/propose',
      operationId: 'reconcileProposeProperties',
      summary: 'Reconciliation: the properties data extension offers for a type',
      tags: TAGS,
      query: z.strictObject({ type: z.string().describe('company'), limit: z.string().optional(), ...access }),
      response: anyJson,
    },
    {
      url: '/reconcile/preview',
      operationId: 'reconcilePreview',
      summary: 'Reconciliation: an HTML preview of a company',
      description: 'Any site may show it in a frame (no X-Frame-Options, `frame-ancestors *`); no JSONP.',
      tags: TAGS,
      query: z.strictObject({
        id: z.string().describe('The company’s URI.'),
        [API_KEY_PARAMETER]: access[API_KEY_PARAMETER],
      }),
      response: z.string(),
      produces: ['text/html'],
      errors: [404],
    },
  );

  const answer = async (request: FastifyRequest, values: URLSearchParams) => {
    requireScope(request, 'read');
    const queries = values.get('queries');
    const extension = values.get('extend');
    if (queries !== null) return reconcile(db, reference, parseQueryBatch(queries));
    if (extension !== null) return extend(db, reference, parseExtendQuery(extension));
    const unknown = [...values.keys()].find((k) => !ACCESS_PARAMETERS.has(k));
    if (unknown) throw new AppError('bad_request', `unknown parameter ${unknown}`, { parameter: unknown });
    return reconciliationManifest(site, base);
  };

  api.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => done(null, new URLSearchParams(String(body))),
    );
    scope.get('/reconcile', (request) => answer(request, searchParams(request.url)));
    scope.post('/reconcile', (request) => {
      const body = request.body instanceof URLSearchParams ? request.body : null;
      if (!body)
        throw new AppError('bad_request', 'Send a form (application/x-www-form-urlencoded) with queries= or extend=');
      return answer(request, body);
    });
  });
  api.get('/reconcile/suggest/entity', async (request) => {
    requireScope(request, 'read');
    const values = searchParams(request.url);
    return suggestEntities(db, reference, values.get('prefix') ?? '', parseSuggestCursor(values.get('cursor')));
  });
  api.get('/reconcile/suggest/property', async (request) => {
    requireScope(request, 'read');
    const values = searchParams(request.url);
    return suggestProperties(values.get('prefix') ?? '', parseSuggestCursor(values.get('cursor')));
  });
  api.get('/reconcile/extend/propose', async (request) => {
    requireScope(request, 'read');
    const values = searchParams(request.url);
    return proposeProperties(values.get('type') ?? '', Number(values.get('limit') ?? '') || undefined);
  });
  api.get('/reconcile/preview', async (request, reply) => {
    requireScope(request, 'read');
    const uri = searchParams(request.url).get('id') ?? '';
    const id = companyIdOfUri(uri);
    const [company] =
      id === null ? [] : await readCompanies(db, [id], [identifiersPart.pick('identifier_type_id', 'identifier')]);
    if (!company || company.uri !== uri) throw new AppError('not_found', `No company ${uri}`);
    const jurisdiction = displayName(reference.locations.byId.get(Number(company.jurisdiction_id)));
    const numbers = company.identifiers.map((i) => i.identifier).slice(0, 3);
    reply.type('text/html; charset=utf-8');
    // Tools show the preview in a frame on their own origin (ADR 0034): this response alone may be framed.
    allowFramingByAnySite(reply);
    return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(company.name)}</title></head><body style="font:14px sans-serif;margin:8px"><a href="${escapeHtml(`${site}/companies/details/${company.uri}/`)}" target="_blank" rel="noopener"><strong>${escapeHtml(company.name)}</strong></a><div>${escapeHtml(jurisdiction)}${company.registered_on ? ` · ${escapeHtml(String(company.registered_on).slice(0, 10))}` : ''}</div><div>${numbers.map(escapeHtml).join(' · ')}</div></body></html>`;
  });
}
