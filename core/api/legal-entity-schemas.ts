import { z } from 'zod';
import { FACET_VALUES } from '../search/facets.ts';

// The JSON shapes of the data API (spec §3 "Legal entity", §7 "Data"). One zod schema per shape:
// the API's response type, its OpenAPI document and the integration tests all read these.

/** The data sections a client can request (`sections=le_legal_entities|le_identifiers`). */
export const LEGAL_ENTITY_SECTIONS = [
  'le_legal_entities',
  'le_names',
  'le_addresses',
  'le_dates',
  'le_identifiers',
  'le_industries',
  'le_indicators',
  'le_shares',
  'le_specifications',
  'le_statuses',
  'le_contacts',
  'le_members',
] as const;

export type LegalEntitySection = (typeof LEGAL_ENTITY_SECTIONS)[number];

/** The response key of a section: `le_identifiers` → `identifiers`. */
export function sectionKey(section: LegalEntitySection): string {
  return section.slice(3);
}

export const RefLinkSchema = z
  .object({ id: z.number().int(), uri: z.string(), name: z.string() })
  .meta({ id: 'RefLink', description: 'A reference record: its id, uri and display name in the requested language.' });

export const JurisdictionSchema = z
  .object({
    registry_location_id: z.number().int(),
    name: z.string(),
    uri: z.string(),
    countryCode: z.string().describe('ISO 3166-1 alpha-2 code (a state carries its country’s code).'),
    flag: z.string().describe('Emoji flag; a state shows its country’s flag.'),
  })
  .meta({ id: 'Jurisdiction' });

export const StatusEntrySchema = z
  .object({ status_id: z.number().int(), status_name: z.string(), uri: z.string() })
  .meta({ id: 'StatusEntry' });

export const LegalEntityCoreSchema = z
  .object({
    id: z.number().int(),
    uri: z.string(),
    name: z.string(),
    href: z.string().describe('Path of the company profile page.'),
    jurisdiction: JurisdictionSchema,
    registry_location_name: z.string(),
    kind: RefLinkSchema.nullable(),
    statuses: z.array(StatusEntrySchema),
    status_name: z
      .string()
      .nullable()
      .describe('The chosen status (spec §4): the one with id 1, otherwise the first with a name.'),
    is_active: z.boolean().describe('True when the chosen status id is 1.'),
    types_by_size: z.object({ id: z.number().int(), uri: z.string(), type_by_size_name: z.string() }).nullable(),
    employees_number: z.object({ id: z.number().int(), uri: z.string(), name: z.string() }).nullable(),
    primary_industry: RefLinkSchema.nullable(),
    registered_on: z.string().nullable().describe('Registration date, yyyy-MM-dd.'),
  })
  .meta({ id: 'LegalEntity' });

export const LegalEntityNameSchema = z
  .object({ type: RefLinkSchema, position: z.number().int(), name: z.string() })
  .meta({ id: 'LegalEntityName' });

export const LegalEntityAddressSchema = z
  .object({
    type: RefLinkSchema,
    position: z.number().int(),
    full_address: z.string().describe('The components joined into one line.'),
    address_line_1: z.string().nullable(),
    address_line_2: z.string().nullable(),
    block: z.string().nullable(),
    building: z.string().nullable(),
    city_district: z.string().nullable(),
    country: RefLinkSchema.nullable(),
    county: z.string().nullable(),
    floor: z.string().nullable(),
    house: z.string().nullable(),
    locality: z.string().nullable(),
    post_code: z.string().nullable(),
    room: z.string().nullable(),
    state: z.string().nullable(),
    state_location: RefLinkSchema.nullable(),
    street: z.string().nullable(),
  })
  .meta({ id: 'LegalEntityAddress' });

export const LegalEntityDateSchema = z
  .object({ type: RefLinkSchema, date_full: z.string().describe('yyyy-MM-dd') })
  .meta({ id: 'LegalEntityDate' });

export const LegalEntityIdentifierSchema = z
  .object({ type: RefLinkSchema, position: z.number().int(), identifier: z.string() })
  .meta({ id: 'LegalEntityIdentifier' });

export const INDUSTRY_INDICATOR_TYPES = ['is_primary', 'is_secondary', 'is_licensed', 'is_unlicensed'] as const;

export const LegalEntityIndustrySchema = z
  .object({
    industry_id: z.number().int(),
    uri: z.string(),
    name: z.string(),
    code: z.string().describe('NACE Rev. 2 code.'),
    industry_indicators: z.array(z.object({ type: z.enum(INDUSTRY_INDICATOR_TYPES) })),
  })
  .meta({ id: 'LegalEntityIndustry' });

export const LegalEntityIndicatorSchema = z
  .object({ type: RefLinkSchema, value: z.boolean() })
  .meta({ id: 'LegalEntityIndicator' });

export const LegalEntityShareSchema = z
  .object({
    position: z.number().int(),
    kind: z.enum(['authorized', 'paid_up', 'share']),
    type: z.enum(['ordinary', 'preference']),
    total_price: z.string().nullable().describe('Exact decimal, as a string.'),
    currency_id: z.number().int().nullable(),
    currency_name: z.string().nullable(),
  })
  .meta({ id: 'LegalEntityShare' });

export const LegalEntitySpecificationsSchema = z
  .object({
    members_count: z.number().int().nullable(),
    officers_count: z.number().int().nullable(),
    partners_count: z.number().int().nullable(),
  })
  .meta({ id: 'LegalEntitySpecifications' });

export const LegalEntityContactSchema = z
  .object({ type: RefLinkSchema, position: z.number().int(), contact: z.string() })
  .meta({ id: 'LegalEntityContact' });

export const LegalEntityMemberSchema = z
  .object({
    member_id: z.number().int(),
    name: z.string(),
    name_type: z.enum(['legal_entity', 'individual', 'authority', 'mixed']),
    name_components: z.object({
      first_name: z.string().nullable(),
      middle_name: z.string().nullable(),
      last_name: z.string().nullable(),
      postfix: z.string().nullable(),
    }),
    position: RefLinkSchema,
    since: z.string().nullable(),
    company: z
      .object({ id: z.number().int(), uri: z.string(), name: z.string() })
      .nullable()
      .describe('Set when the member is itself a company in the database.'),
  })
  .meta({ id: 'LegalEntityMember' });

export const LegalEntityItemSchema = z
  .object({
    legal_entities: LegalEntityCoreSchema,
    names: z.array(LegalEntityNameSchema).optional(),
    addresses: z.array(LegalEntityAddressSchema).optional(),
    dates: z.array(LegalEntityDateSchema).optional(),
    identifiers: z.array(LegalEntityIdentifierSchema).optional(),
    industries: z.array(LegalEntityIndustrySchema).optional(),
    indicators: z.array(LegalEntityIndicatorSchema).optional(),
    shares: z.array(LegalEntityShareSchema).optional(),
    specifications: LegalEntitySpecificationsSchema.nullable().optional(),
    statuses: z.array(StatusEntrySchema).optional(),
    contacts: z
      .array(LegalEntityContactSchema)
      .optional()
      .describe(
        "The company's contacts: emails, phone and fax numbers only when the caller bought its full profile (websites always).",
      ),
    members: z.array(LegalEntityMemberSchema).optional(),
  })
  .meta({
    id: 'LegalEntityItem',
    description:
      'One company: `legal_entities` always, and one key per other requested section (`le_names` → `names`, …).',
  });

export type LegalEntityItem = z.output<typeof LegalEntityItemSchema>;
export type LegalEntityCore = z.output<typeof LegalEntityCoreSchema>;
export type RefLink = z.output<typeof RefLinkSchema>;

/**
 * How a search's total reads in `meta` (ADR 0002, "Counts"): exact up to the count's cap, else an
 * estimate said to be one; `total_is_lower_bound` stays for clients of the former capped count.
 */
export function totalMetaFields(rows: string) {
  return {
    total: z
      .number()
      .int()
      .describe(
        `Matching ${rows}: exact when \`total_is_estimate\` is false, else an estimate (rounded to 2 significant figures, never below \`total_at_least\`).`,
      ),
    total_is_estimate: z.boolean().describe('True when `total` is an estimate (pages show it as "about 52,000").'),
    total_at_least: z
      .number()
      .int()
      .describe(`Matching ${rows} counted exactly: \`total\` when exact, else at least this many match.`),
    total_is_lower_bound: z
      .boolean()
      .describe('Same as `total_is_estimate` (kept for older clients): more than `total_at_least` match.'),
  };
}

/** A search's count as `meta` fields (totalMetaFields). */
export function totalMeta(count: { total: number; totalIsEstimate: boolean; atLeast: number }) {
  return {
    total: count.total,
    total_is_estimate: count.totalIsEstimate,
    total_at_least: count.atLeast,
    total_is_lower_bound: count.totalIsEstimate,
  };
}

/**
 * `meta.facets` of every search of the data API (companies and record sections, GET and POST): the
 * search page's facet counts (core/search/facets.ts), one list per field asked for.
 */
export const FacetsMetaSchema = z
  .record(
    z.string(),
    z.array(
      z.object({
        id: z
          .number()
          .int()
          .describe(
            'The value’s id: in its reference list (industries: the sector; jurisdictions: the country or state), or, for a record’s own field, the `id` of the field’s value as records show it.',
          ),
        count: z.number().int().describe('Matching rows with this value, under the search’s other filters.'),
        estimate: z.boolean().describe('The count is estimated from a sample (shown "about 1,200"); exact when false.'),
      }),
    ),
  )
  .describe(
    `Present when \`facets\` was asked: the most frequent values (at most ${FACET_VALUES}) of each field among the matches. A field’s own filter is left out of its counts (choosing another value is one click); under nested filters only when the filter is one the tree ANDs at its top.`,
  )
  .meta({ id: 'Facets' });

export const LegalEntitiesResponseSchema = z
  .object({
    data: z.array(LegalEntityItemSchema),
    meta: z.object({
      count: z.number().int().describe('Items in `data`.'),
      ...totalMetaFields('companies'),
      next: z.string().nullable().describe('Keyset cursor for the next page: pass it as `after`.'),
      corrected_query: z
        .string()
        .optional()
        .describe(
          'Present when no company name held `q` as typed: the query searched instead (normalised, misspelt words corrected).',
        ),
      near_names: z
        .number()
        .int()
        .optional()
        .describe(
          'Present when `q`, typed as a whole name, found few companies and none of that name: how many companies of a name one corrected word away were added (after the exact names).',
        ),
      facets: FacetsMetaSchema.optional(),
    }),
  })
  .meta({ id: 'LegalEntitiesResponse' });

export type LegalEntitiesResponse = z.output<typeof LegalEntitiesResponseSchema>;
