import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  declaredRefItem,
  EmployeeRangeItemSchema,
  employeeRangeItem,
  IndustryItemSchema,
  industryItem,
  LocationItemSchema,
  locationItem,
  ReferenceItemSchema,
  referenceItem,
} from '../../core/api/reference-items.ts';
import { DECLARED_LISTS } from '../../core/reference/declared-lists.ts';
import { flagOf, type RefList } from '../../core/reference/reference-data.ts';
import type { AppServices } from '../../core/services.ts';
import { type ApiRoutes, getRoute, intParam, langParam, languageIdOf, listMeta } from './route.ts';

// Reference data (spec §7 "Reference data"): read from the in-memory Reference, never from SQL.

const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: listMeta });

/** A list's operation id, named after the last segment of its path: `/land_use` → `getLandUse`. */
function operationIdOf(url: string): string {
  const words = url.slice(url.lastIndexOf('/') + 1).split('_');
  return `get${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`;
}

/** The simple lists: id, uri, name and translations. */
const SIMPLE_LISTS = [
  { url: '/location_types', list: 'locationTypes', summary: 'Location types' },
  {
    url: '/legal_entity_types',
    list: 'kinds',
    summary: 'Legal-entity types (legal forms)',
  },
  { url: '/sizes', list: 'sizes', summary: 'Company sizes' },
  { url: '/statuses', list: 'statuses', summary: 'Company statuses (id 1 = active)' },
  { url: '/currencies', list: 'currencies', summary: 'Currencies (ISO 4217)' },
  { url: '/languages', list: 'languages', summary: 'Languages (ISO 639-1)' },
  {
    url: '/site/data/v1/date_types',
    list: 'dateTypes',
    summary: 'Date types of companies (registration, dissolution, …)',
  },
] as const;

export function registerReferenceRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { reference } = services;

  // The simple lists (reference tables) and the declared ones (core/reference/declared-lists.ts): one shape.
  const lists = [
    ...SIMPLE_LISTS.map(({ list, ...route }) => ({ ...route, items: (reference[list] as RefList).items })),
    ...DECLARED_LISTS.map(({ values, ...route }) => ({
      ...route,
      items: values.map((value) => declaredRefItem(value, reference.languageIds)),
    })),
  ];
  for (const { url, summary, items } of lists) {
    getRoute(
      api,
      routes,
      {
        url,
        operationId: operationIdOf(url),
        summary,
        tags: ['Reference data'],
        query: z.strictObject({ lang: langParam }),
        response: listOf(ReferenceItemSchema),
      },
      async ({ lang }) => {
        const languageId = languageIdOf(reference, lang);
        const data = items.map((item) => referenceItem(item, languageId));
        return { data, meta: { count: data.length } };
      },
    );
  }

  getRoute(
    api,
    routes,
    {
      url: '/employees',
      operationId: 'getEmployeeRanges',
      summary: 'Employee-count ranges',
      tags: ['Reference data'],
      query: z.strictObject({ lang: langParam }),
      response: listOf(EmployeeRangeItemSchema),
    },
    async ({ lang }) => {
      const languageId = languageIdOf(reference, lang);
      const data = reference.employees.items.map((item) => employeeRangeItem(item, languageId));
      return { data, meta: { count: data.length } };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/locations',
      operationId: 'getLocations',
      summary: 'Locations: countries (type 1) and the states of the countries that have them (type 2)',
      tags: ['Reference data'],
      query: z.strictObject({
        lang: langParam,
        location_type_id: intParam('location_type_id').optional().describe('Only this type: 1 = country, 2 = state.'),
        parent_id: intParam('parent_id')
          .optional()
          .describe('Only the locations inside this one (a country’s states).'),
      }),
      response: listOf(LocationItemSchema),
    },
    async ({ lang, location_type_id, parent_id }) => {
      const languageId = languageIdOf(reference, lang);
      const data = reference.locations.items
        .filter((l) => location_type_id === undefined || l.location_type_id === location_type_id)
        .filter((l) => parent_id === undefined || l.parent_id === parent_id)
        .map((l) => locationItem(reference, l, languageId, flagOf(reference, l.id)));
      return { data, meta: { count: data.length } };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/industries',
      operationId: 'getIndustries',
      summary: 'Industries (NACE Rev. 2), with their parents and children',
      tags: ['Reference data'],
      query: z.strictObject({
        lang: langParam,
        parent_id: intParam('parent_id').optional().describe('Only the direct children of this industry.'),
        level: intParam('level', 1, 4)
          .optional()
          .describe('Only this level: 1 = section, 2 = division, 3 = group, 4 = class (NACE Rev. 2).'),
      }),
      response: listOf(IndustryItemSchema),
    },
    async ({ lang, parent_id, level }) => {
      const languageId = languageIdOf(reference, lang);
      const data = reference.industries.items
        .filter((i) => parent_id === undefined || i.parent_id === parent_id)
        .filter((i) => level === undefined || i.level === level)
        .map((i) => industryItem(reference, i, languageId));
      return { data, meta: { count: data.length } };
    },
  );
}
