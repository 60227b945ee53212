import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  describeFilterControls,
  describeFilters,
  describeSorts,
  FiltersV1Schema,
  FiltersV2Schema,
} from '../../core/api/describe-filters.ts';
import {
  LEGAL_ENTITY_SECTIONS,
  LegalEntitiesResponseSchema,
  type LegalEntitySection,
  totalMeta,
} from '../../core/api/legal-entity-schemas.ts';
import {
  cachedLegalEntityCounts,
  LegalEntityStatisticsSchema,
  presentLegalEntityStatistics,
} from '../../core/api/legal-entity-statistics.ts';
import { readLegalEntities } from '../../core/api/read-legal-entities.ts';
import { asOfDaySchema } from '../../core/companies/as-of.ts';
import { findCompanyIds } from '../../core/companies/find-companies.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { settleTogether } from '../../core/errors/settle-together.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import { unlockedFor } from '../../core/purchases/paywall.ts';
import type { Lang, Reference } from '../../core/reference/reference-data.ts';
import { facetCounts } from '../../core/search/facets.ts';
import { sectionParameters } from '../../core/search/parameters.ts';
import { MAX_PAGE, MAX_QUERY_LENGTH, parseSearchState, type SearchState } from '../../core/search/search-state.ts';
import { companiesSection } from '../../core/sections/companies.ts';
import type { LabelRef, SectionDecl } from '../../core/sections/section.ts';
import type { AppServices } from '../../core/services.ts';
import { staleReads } from '../../core/services.ts';
import { viewerOf } from './auth.ts';
import { facetsMeta, facetsParam } from './facets-param.ts';
import { type ApiRoutes, badRequest, getRoute, intParam, langParam, languageIdOf, mutationRoute } from './route.ts';
import { queryField, searchBodyFields, stateOfBody } from './search-body.ts';

export const MAX_COUNT = 100;
export const MAX_IDS = 100;

const DATA = '/site/data/v1/legal_entities';

const sectionsParam = z
  .preprocess(
    (v) => (Array.isArray(v) ? v.join('|') : v),
    z.string().transform((raw, ctx) => {
      const names = raw.split(/[|,]/).map((s) => s.trim());
      const unknown = names.find((n) => !(LEGAL_ENTITY_SECTIONS as readonly string[]).includes(n));
      if (unknown !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown section "${unknown}"; sections are ${LEGAL_ENTITY_SECTIONS.join(', ')}`,
        });
        return z.NEVER;
      }
      return new Set(names as LegalEntitySection[]);
    }),
  )
  .describe(
    `Data sections to return, joined by |: ${LEGAL_ENTITY_SECTIONS.join(', ')}. ` +
      'le_legal_entities (the default) is always included.',
  );

const idListParam = z
  .string()
  .regex(/^\d{1,15}([|,]\d{1,15})*$/, { error: 'le_le_id must be company ids joined by |' })
  .transform((raw) => [...new Set(raw.split(/[|,]/).map(Number))])
  .pipe(z.array(z.number()).max(MAX_IDS, { error: `le_le_id takes at most ${MAX_IDS} ids` }))
  .describe(
    `Company ids joined by | (at most ${MAX_IDS}): returns those companies, in that order. Excludes search parameters.`,
  );

/**
 * The documented filter parameters of a section. Address parts (and, with `typed` false, every
 * typed filter) are described by pattern in the route's description, not one by one.
 */
export function documentedParameters(
  section: SectionDecl,
  reference: Reference,
  typed = true,
): Record<string, z.ZodOptional<z.ZodString>> {
  const out: Record<string, z.ZodOptional<z.ZodString>> = {};
  for (const p of sectionParameters(section, reference)) {
    if (p.keys.length > (typed ? 1 : 0)) continue;
    out[p.name] = z
      .string()
      .optional()
      .describe(PARAMETER_HELP[p.op === 'eq' ? p.control : p.op]);
  }
  return out;
}

const PARAMETER_HELP: Record<string, string> = {
  select: 'Values (ids or uris, see the filters call) joined by |; any of them matches.',
  text: 'Exact values (case-insensitive) joined by |.',
  boolean: 'true or false.',
  date: 'A date: yyyy, yyyy-MM or yyyy-MM-dd.',
  number: 'A number.',
  from: 'Lower bound (dates: yyyy, yyyy-MM or yyyy-MM-dd; a year-only bound covers the whole year).',
  to: 'Upper bound (dates: yyyy, yyyy-MM or yyyy-MM-dd; a year-only bound covers the whole year).',
  is_known: 'Send with an empty value: the value is known.',
  is_unknown: 'Send with an empty value: the value is unknown.',
};

export function registerLegalEntityRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  // The public data API is stale-tolerant: a replica's when there are some (ADR 0024).
  const db = staleReads(services);
  const { reference } = services;
  const sortKeys = ['relevance', ...companiesSection.sorts.map((s) => s.key)] as [string, ...string[]];

  const query = z.strictObject({
    count: intParam('count', 1, MAX_COUNT)
      .prefault(companiesSection.pageSize)
      .describe(`Page size, 1 to ${MAX_COUNT} (default ${companiesSection.pageSize}).`),
    sections: sectionsParam.optional(),
    le_le_id: idListParam.optional(),
    id: intParam('id').optional().describe('One company by id (404 when there is none). Excludes search parameters.'),
    as_of: asOfDaySchema
      .optional()
      .describe(
        'With `id` or `le_le_id`: each company as Registra knew it at the end of this day (UTC, YYYY-MM-DD), ' +
          'rebuilt from its recorded changes (every change observed after the day undone); parts without ' +
          'history (contacts, shares, indicators, specifications) are as today. A company that had not ' +
          'appeared yet is a 404 with `id`, left out with `le_le_id`.',
      ),
    lang: langParam,
    q: z
      .string()
      .max(MAX_QUERY_LENGTH)
      .optional()
      .describe(
        'Company name query (typo-tolerant), or an identifier a company holds (company number with or without leading zeros or the register’s letters, LEI, VAT number, SEC CIK): the companies holding it come first.',
      ),
    sort: z
      .enum(sortKeys)
      .optional()
      .describe(
        `Order: ${sortKeys.join(', ')} (relevance only with q; default registration_date_desc, or relevance with q).`,
      ),
    page: intParam('page', 1, MAX_PAGE).optional().describe('Page number (offset paging); prefer `after`.'),
    after: z.string().optional().describe('Keyset cursor: `meta.next` of the previous page.'),
    facets: facetsParam(companiesSection).optional(),
    ...documentedParameters(companiesSection, reference),
  });

  getRoute(
    api,
    routes,
    {
      url: DATA,
      operationId: 'getLegalEntities',
      summary: 'Search companies, or fetch companies by id',
      description:
        'Filters use the search grammar: `field=v1|v2`, `field[type]=v`, `field[type]:from=2020`, `:to`, and ' +
        '`field[type]:is_known=` / `:is_unknown=` with an empty value (dates too); address parts as ' +
        '`addresses[{address type}][{part}]=value` (parts: address_line_1, address_line_2, block, building, ' +
        'city_district, county, floor, house, locality, post_code, room, state, street). Parameters other than the ones ' +
        'listed are a 400 naming them. With `id` or `le_le_id` the companies are fetched directly and search ' +
        'parameters are refused.',
      tags: ['Data'],
      query,
      openQuery: { parsedKeys: ['count', 'sections', 'le_le_id', 'id', 'lang', 'facets', 'as_of'] },
      response: LegalEntitiesResponseSchema,
      errors: [404],
      readOnly: true,
    },
    async (params, { params: raw, request }) => {
      const sections = params.sections ?? new Set<LegalEntitySection>();
      sections.add('le_legal_entities');
      const viewer = await viewerOf(request);
      const read = async (ids: number[], today = false) =>
        readLegalEntities(db, reference, ids, {
          sections,
          lang: params.lang,
          languageId: languageIdOf(reference, params.lang),
          asOf: today ? undefined : params.as_of,
          unlocked: await unlockedFor(services.db, viewer, ids),
        });
      const searchParams = new URLSearchParams([...raw].filter(([key]) => !isApiKey(key)));

      if (params.id !== undefined || params.le_le_id !== undefined) {
        const lookup = params.id !== undefined ? 'id' : 'le_le_id';
        if (params.id !== undefined && params.le_le_id !== undefined) {
          throw badRequest([{ parameter: 'le_le_id', message: 'le_le_id cannot be combined with id' }]);
        }
        const conflict = [...searchParams.keys()][0];
        if (conflict !== undefined) {
          throw badRequest([{ parameter: conflict, message: `${conflict} cannot be combined with ${lookup}` }]);
        }
        const data = await read(params.id !== undefined ? [params.id] : (params.le_le_id ?? []));
        if (params.id !== undefined && data.length === 0) {
          throw params.as_of !== undefined && (await read([params.id], true)).length > 0
            ? new AppError('not_found', `The company with id ${params.id} did not exist yet on ${params.as_of}.`, {
                parameter: 'as_of',
              })
            : new AppError('not_found', `There is no company with id ${params.id}.`, { parameter: 'id' });
        }
        return {
          data,
          meta: {
            count: data.length,
            ...totalMeta({ total: data.length, totalIsEstimate: false, atLeast: data.length }),
            next: null,
          },
        };
      }

      if (params.as_of !== undefined) {
        throw badRequest([{ parameter: 'as_of', message: 'as_of needs id or le_le_id (a search is of today)' }]);
      }
      const parsed = parseSearchState(companiesSection, searchParams);
      if (!parsed.ok) throw badRequest(parsed.errors);
      return answer(parsed.state, { ...params, sections }, params.facets ?? null, viewer);
    },
  );

  /** One page of a companies search: the ids found, read as the sections ask; facets are the search page's (ADR 0020). */
  async function answer(
    state: SearchState,
    params: { count: number; sections: Set<LegalEntitySection>; lang: Lang },
    wanted: ReadonlySet<string> | null,
    viewer: number | undefined,
  ) {
    const [result, facets] = await settleTogether(
      findCompanyIds(db, reference, state, params.count),
      wanted ? facetCounts(db, reference, companiesSection, state, wanted) : Promise.resolve(null),
    );
    const data = await readLegalEntities(db, reference, result.ids, {
      sections: params.sections,
      lang: params.lang,
      languageId: languageIdOf(reference, params.lang),
      unlocked: await unlockedFor(services.db, viewer, result.ids),
    });
    return {
      data,
      meta: {
        count: data.length,
        ...totalMeta(result),
        next: result.next ?? null,
        ...(result.correctedQuery ? { corrected_query: result.correctedQuery } : {}),
        ...(result.nearNames ? { near_names: result.nearNames } : {}),
        ...(facets ? { facets: facetsMeta(facets) } : {}),
      },
    };
  }

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: `${DATA}/search`,
      operationId: 'searchLegalEntities',
      summary: 'Search companies with nested any/all/not filters',
      description:
        'The twin of `GET /api/site/data/v1/legal_entities` for filters a query string cannot say: the same ' +
        'parameters as a JSON body, and `filter`, a tree of the same filters. `facets` counts under the tree; a ' +
        'facet leaves out its own filter when the tree ANDs that filter at its top, as the GET does.',
      tags: ['Data'],
      body: z.strictObject({
        q: queryField,
        ...searchBodyFields(companiesSection, sortKeys),
        count: z
          .number()
          .int()
          .min(1)
          .max(MAX_COUNT)
          .default(companiesSection.pageSize)
          .describe(`Page size, 1 to ${MAX_COUNT} (default ${companiesSection.pageSize}).`),
        sections: sectionsParam.optional(),
        facets: facetsParam(companiesSection).optional(),
        lang: langParam,
      }),
      response: LegalEntitiesResponseSchema,
    },
    async ({ body }, { request }) => {
      const state = stateOfBody(companiesSection, body);
      const sections = body.sections ?? new Set<LegalEntitySection>();
      sections.add('le_legal_entities');
      return answer(
        state,
        { count: body.count, sections, lang: body.lang },
        body.facets ?? null,
        await viewerOf(request),
      );
    },
  );

  getRoute(
    api,
    routes,
    {
      url: `${DATA}/filters`,
      operationId: 'getLegalEntityFilters',
      summary: 'The declared filters of the companies search, with their values and types',
      description:
        'One entry per declared filter: reference filters list their values (send `value_key` of each, joined ' +
        'by |); typed filters list their types and the exact parameters each type accepts.',
      tags: ['Data'],
      query: z.strictObject({
        lang: langParam,
        field: z
          .string()
          .transform((raw, ctx) => {
            const fields = raw.split('|');
            const unknown = fields.find((f) => !companiesSection.filters.some((d) => d.field === f));
            if (unknown !== undefined) {
              ctx.addIssue({
                code: 'custom',
                message: `unknown filter "${unknown}"; filters are ${companiesSection.filters.map((d) => d.field).join(', ')}`,
              });
              return z.NEVER;
            }
            return new Set(fields);
          })
          .optional()
          .describe('Only these filters (fields joined by |).'),
      }),
      response: FiltersV1Schema,
    },
    async (params) => {
      const t = labels(params.lang);
      const languageId = languageIdOf(reference, params.lang);
      return {
        data: describeFilters(companiesSection, reference, languageId, t, params.field),
        meta: {
          entity_type: 'legal_entity' as const,
          section: companiesSection.id,
          sorts: describeSorts(companiesSection, t),
          list_separator: '|' as const,
        },
      };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/site/v2/legal-entities/filters/',
      operationId: 'getLegalEntityFiltersV2',
      summary: 'The companies filter panel as ready-to-render controls',
      description:
        'The v2 shape: the panel’s groups, each a list of concrete controls (multi_select, tree_select, ' +
        'date_range, text, availability) naming the exact query parameters they send, with options as ' +
        '{ value, label, parent }. One control per type of a typed filter.',
      tags: ['Data'],
      query: z.strictObject({ lang: langParam }),
      response: FiltersV2Schema,
    },
    async (params) => {
      const t = labels(params.lang);
      const languageId = languageIdOf(reference, params.lang);
      return {
        data: {
          entity_type: 'legal_entity' as const,
          groups: describeFilterControls(companiesSection, reference, languageId, t),
          sorts: describeSorts(companiesSection, t),
        },
      };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: `${DATA}/statistics`,
      operationId: 'getLegalEntityStatistics',
      summary: 'Default statistics of companies (entityType legal_entity)',
      description:
        'Companies by jurisdiction (top 30), status, primary-industry sector (NACE Rev. 2 section) and registration ' +
        'year. Counted at most once every 10 minutes.',
      tags: ['Data'],
      query: z.strictObject({ lang: langParam }),
      response: z.object({
        data: LegalEntityStatisticsSchema,
        meta: z.object({ computed_at: z.string(), expires_at: z.string() }),
      }),
    },
    async (params) => {
      const entry = cachedLegalEntityCounts(db);
      const result = await entry.counts;
      return {
        data: presentLegalEntityStatistics(result, reference, languageIdOf(reference, params.lang)),
        meta: { computed_at: result.computedAt.toISOString(), expires_at: new Date(entry.expiresAt).toISOString() },
      };
    },
  );
}

/** Resolves declared labels (i18n keys or inline labels) in a language. */
export function labels(lang: Lang): (label: LabelRef) => string {
  const t = i18nFor(lang).t;
  return (label) => (typeof label === 'string' ? t(label) : label[lang]);
}

function isApiKey(key: string): boolean {
  return (
    key === 'as_of' ||
    key === 'count' ||
    key === 'sections' ||
    key === 'le_le_id' ||
    key === 'id' ||
    key === 'lang' ||
    key === 'facets'
  );
}
