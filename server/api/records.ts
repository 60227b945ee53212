import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  FacetsMetaSchema,
  LegalEntityShareSchema,
  RefLinkSchema,
  totalMeta,
  totalMetaFields,
} from '../../core/api/legal-entity-schemas.ts';
import { presentRecord } from '../../core/api/present-record.ts';
import { readShares } from '../../core/api/read-shares.ts';
import { settleTogether } from '../../core/errors/settle-together.ts';
import { GATED_RECORD_FIELDS, recordRowsFor } from '../../core/purchases/paywall.ts';
import { displayName, type Lang } from '../../core/reference/reference-data.ts';
import { facetCounts } from '../../core/search/facets.ts';
import { findRecords } from '../../core/search/find-records.ts';
import { MAX_PAGE, parseSearchState, type SearchState } from '../../core/search/search-state.ts';
import type { RecordField } from '../../core/sections/record-fields.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import type { AppServices } from '../../core/services.ts';
import { staleReads } from '../../core/services.ts';
import { viewerOf } from './auth.ts';
import { facetsMeta, facetsParam } from './facets-param.ts';
import { documentedParameters, MAX_COUNT } from './legal-entities.ts';
import { type ApiRoutes, badRequest, getRoute, intParam, langParam, languageIdOf, mutationRoute } from './route.ts';
import { searchBodyFields, stateOfBody } from './search-body.ts';

// The data API of the related-record sections (spec §7 "Data"): GET /site/data/v1/{name} for each
// section, from its declaration: the same filter grammar, sorts and keyset cursor as the pages.

const LocationLinkSchema = RefLinkSchema.extend({ countryCode: z.string(), flag: z.string() }).meta({
  id: 'LocationLink',
});

const CompanyLinkSchema = z
  .object({
    id: z.number().int(),
    uri: z.string(),
    name: z.string(),
    jurisdiction: LocationLinkSchema,
    status_id: z.number().int().nullable(),
    primary_industry_id: z.number().int().nullable(),
    size_id: z.number().int().nullable(),
    employees_id: z.number().int().nullable(),
  })
  .meta({ id: 'RecordCompany', description: 'The company a record belongs to.' });

const PageMetaSchema = z.object({
  count: z.number().int(),
  ...totalMetaFields('records'),
  next: z.string().nullable().describe('Cursor of the next page: pass it as `after`.'),
  facets: FacetsMetaSchema.optional(),
});

function fieldSchema(field: RecordField): z.ZodType {
  switch (field.type) {
    case 'enum':
      return RefLinkSchema.nullable();
    case 'location':
      return LocationLinkSchema.nullable();
    case 'currency':
      return z.string().nullable().describe('ISO 4217 code.');
    case 'amount':
      return z.string().nullable().describe('Exact decimal, as a string.');
    case 'number':
    case 'year':
      return z.number().int().nullable();
    case 'date':
      return z.string().nullable().describe('yyyy-MM-dd');
    default:
      return z.string().nullable();
  }
}

function pascal(name: string): string {
  return name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}

export function registerRecordRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  // The public data API is stale-tolerant: a replica's when there are some (ADR 0024).
  const db = staleReads(services);
  const { reference } = services;
  for (const section of SECTIONS) {
    const record = section.record;
    if (!record) continue;
    const name = record.api ?? record.table;
    const itemSchema = z
      .object({
        id: z.number().int(),
        legal_entity_id: z.number().int(),
        legal_entity: CompanyLinkSchema,
        ...Object.fromEntries(record.fields.map((f) => [f.key, fieldSchema(f)])),
      })
      .meta({ id: `${pascal(record.table)}Record` });
    const sortKeys = section.sorts.map((s) => s.key) as [string, ...string[]];
    const query = z.strictObject({
      count: intParam('count', 1, MAX_COUNT)
        .prefault(section.pageSize)
        .describe(`Page size, 1 to ${MAX_COUNT} (default ${section.pageSize}).`),
      le_le_id: z
        .string()
        .regex(/^\d{1,15}([|,]\d{1,15})*$/, { error: 'le_le_id must be company ids joined by |' })
        .optional()
        .describe('Only the records of these companies (ids joined by |).'),
      lang: langParam,
      sort: z
        .enum(sortKeys)
        .optional()
        .describe(`Order: ${sortKeys.join(', ')} (default ${section.defaultSort}).`),
      page: intParam('page', 1, MAX_PAGE).optional().describe('Page number (offset paging); prefer `after`.'),
      after: z.string().optional().describe('Keyset cursor: `meta.next` of the previous page.'),
      facets: facetsParam(section).optional(),
      ...documentedParameters(section, reference, false),
    });
    getRoute(
      api,
      routes,
      {
        url: `/site/data/v1/${name}`,
        operationId: `get${pascal(name)}`,
        summary: `Search ${record.title.en.toLowerCase()}`,
        description:
          `${record.title.en} of companies, newest first. \`id\` returns one record by id; \`le_le_id\` the records ` +
          'of the given companies. Filters use the search grammar (`field=v1|v2`, `field:from`, `field:to`, ' +
          '`field:is_known=`), including the company filters `company_jurisdiction`, `company_industry`, ' +
          '`company_status`, `company_size`, `company_employees`, `company_kind` and the typed ' +
          '`company_dates[type]:from`, `company_identifiers[type]`, `company_contacts[type]:is_known`, ' +
          '`company_addresses[type][part]`, `company_indicators[type]`, `company_names[type]`. ' +
          'Unknown parameters are a 400 naming them.' +
          (GATED_RECORD_FIELDS[section.baseTable]
            ? ` ${GATED_RECORD_FIELDS[section.baseTable].join(', ')} are null unless the caller bought the company's full profile (POST /api/purchases/users/{user_id}).`
            : ''),
        tags: ['Data'],
        query,
        openQuery: { parsedKeys: ['count', 'le_le_id', 'lang', 'facets'] },
        response: z.object({ data: z.array(itemSchema), meta: PageMetaSchema }),
      },
      async (params, { params: raw, request }) => {
        const searchParams = new URLSearchParams(
          [...raw].filter(([key]) => key !== 'count' && key !== 'le_le_id' && key !== 'lang' && key !== 'facets'),
        );
        if (params.le_le_id) {
          if (searchParams.has('company')) {
            throw badRequest([{ parameter: 'company', message: 'company cannot be combined with le_le_id' }]);
          }
          searchParams.append('company', params.le_le_id.replaceAll(',', '|'));
        }
        const parsed = parseSearchState(section, searchParams);
        if (!parsed.ok) throw badRequest(parsed.errors);
        return answer(parsed.state, params.count, params.lang, await viewerOf(request), params.facets);
      },
    );

    /** One page of the section's search, and the facets asked for, counted as its search page counts them. */
    const answer = async (
      state: SearchState,
      count: number,
      lang: Lang,
      viewer: number | undefined,
      facets?: ReadonlySet<string>,
    ) => {
      const [result, counts] = await settleTogether(
        findRecords(db, reference, section, state, count),
        facets ? facetCounts(db, reference, section, state, facets) : Promise.resolve(null),
      );
      // The gated values of companies the caller did not buy are null (ADR 0029).
      const rows = await recordRowsFor(services.db, viewer, section.baseTable, result.rows);
      return {
        data: rows.map((row) => presentRecord(section, row, reference, lang)),
        meta: {
          count: result.rows.length,
          ...totalMeta(result),
          next: result.next ?? null,
          ...(counts ? { facets: facetsMeta(counts) } : {}),
        },
      };
    };

    mutationRoute(
      api,
      routes,
      {
        method: 'post',
        url: `/site/data/v1/${name}/search`,
        operationId: `search${pascal(name)}`,
        summary: `Search ${record.title.en.toLowerCase()} with nested any/all/not filters`,
        description:
          `The twin of \`GET /api/site/data/v1/${name}\`: the same parameters as a JSON body, and \`filter\`, a tree of the same filters. ` +
          '`facets` counts under the tree; a facet leaves out its own filter when the tree ANDs that filter at its top, as the GET does.',
        tags: ['Data'],
        body: z.strictObject({
          ...searchBodyFields(section, sortKeys),
          count: z
            .number()
            .int()
            .min(1)
            .max(MAX_COUNT)
            .default(section.pageSize)
            .describe(`Page size, 1 to ${MAX_COUNT} (default ${section.pageSize}).`),
          facets: facetsParam(section).optional(),
          lang: langParam,
        }),
        response: z.object({ data: z.array(itemSchema), meta: PageMetaSchema }),
      },
      async ({ body }, { request }) =>
        answer(stateOfBody(section, body), body.count, body.lang, await viewerOf(request), body.facets),
    );
  }

  getRoute(
    api,
    routes,
    {
      url: '/data_import_shares/api/v1/shares',
      operationId: 'getShares',
      summary: 'Share capital of companies',
      description:
        'The share entries (authorised, paid-up, share capital) of the given companies, or, without `le_le_id`, ' +
        'of the first `count` companies that have any (by company id).',
      tags: ['Data'],
      query: z.strictObject({
        le_le_id: z
          .string()
          .regex(/^\d{1,15}([|,]\d{1,15})*$/, { error: 'le_le_id must be company ids joined by |' })
          .transform((v) => [...new Set(v.split(/[|,]/).map(Number))])
          .pipe(z.array(z.number()).max(MAX_COUNT, { error: `le_le_id takes at most ${MAX_COUNT} ids` }))
          .optional()
          .describe(`Company ids joined by | (at most ${MAX_COUNT}).`),
        count: intParam('count', 1, MAX_COUNT).prefault(50).describe(`Companies without le_le_id, 1 to ${MAX_COUNT}.`),
        lang: langParam,
      }),
      response: z.object({
        data: z.array(LegalEntityShareSchema.extend({ legal_entity_id: z.number().int() })),
        meta: z.object({ count: z.number().int() }),
      }),
    },
    async (params) => {
      const languageId = languageIdOf(reference, params.lang);
      const shares = await readShares(db, params.le_le_id ? { companyIds: params.le_le_id } : { count: params.count });
      const data = shares.map((r) => ({
        ...r,
        total_price: r.total_price === null ? null : String(r.total_price),
        currency_name:
          r.currency_id === null ? null : displayName(reference.currencies.byId.get(r.currency_id), languageId),
      }));
      return { data, meta: { count: data.length } };
    },
  );
}
