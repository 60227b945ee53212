import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { displayName, industryPath, type Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';

// Default statistics for entityType legal_entity (spec §4 start-up, §7 legal_entities/statistics):
// companies by jurisdiction, status, primary-industry sector and registration year. Counting scans
// the table, so callers cache the counts; names are added per request, in the wanted language.

/** The raw counts, independent of language. */
export type LegalEntityCounts = {
  total: number;
  /** Sorted by count, largest first. */
  byJurisdiction: { id: number; count: number }[];
  byStatus: { id: number | null; count: number }[];
  byIndustry: { id: number | null; count: number }[];
  byYear: { year: number | null; count: number }[];
  computedAt: Date;
};

export const TOP_JURISDICTIONS = 30;

export async function countLegalEntities(db: Db): Promise<LegalEntityCounts> {
  const k = db.kysely;
  const computedAt = new Date();
  const [jurisdictions, statuses, industries, years] = await Promise.all([
    sql<{ id: number; count: number }>`
      select jurisdiction_id as id, count(*)::int as count from legal_entities where ${visibleCompany()}
      group by jurisdiction_id order by count desc, jurisdiction_id`.execute(k),
    sql<{ id: number | null; count: number }>`
      select status_id as id, count(*)::int as count from legal_entities where ${visibleCompany()} group by status_id order by status_id`.execute(
      k,
    ),
    sql<{ id: number | null; count: number }>`
      select primary_industry_id as id, count(*)::int as count from legal_entities where ${visibleCompany()}
      group by primary_industry_id`.execute(k),
    sql<{ year: number | null; count: number }>`
      select extract(year from registered_on)::int as year, count(*)::int as count from legal_entities where ${visibleCompany()}
      group by 1 order by 1`.execute(k),
  ]);
  const total = statuses.rows.reduce((sum, r) => sum + r.count, 0);
  return {
    total,
    byJurisdiction: jurisdictions.rows,
    byStatus: statuses.rows,
    byIndustry: industries.rows,
    byYear: years.rows,
    computedAt,
  };
}

/** Statistics scan the table: counted at most once per this long (per database). */
export const STATISTICS_TTL_MS = 10 * 60 * 1000;

/** Counts being (or already) computed, and when they go stale. */
export type CachedLegalEntityCounts = { counts: Promise<LegalEntityCounts>; expiresAt: number };

const cachedCounts = new WeakMap<Db, CachedLegalEntityCounts>();

/**
 * Drops a database's counts (data changed under them: docs/decisions/0014-importers.md); the next
 * caller recounts. True when there were counts to drop.
 */
export function expireLegalEntityCounts(db: Db): boolean {
  return cachedCounts.delete(db);
}

/**
 * The counts of a database, counted at most once every STATISTICS_TTL_MS and shared by every
 * caller (the statistics API and the pages' charts): concurrent callers wait for the same count.
 */
export function cachedLegalEntityCounts(db: Db): CachedLegalEntityCounts {
  const hit = cachedCounts.get(db);
  if (hit && Date.now() < hit.expiresAt) return hit;
  const pending = countLegalEntities(db);
  const entry = { counts: pending, expiresAt: Date.now() + STATISTICS_TTL_MS };
  cachedCounts.set(db, entry);
  // A failed count is not kept: the next caller tries again.
  pending.catch(() => {
    if (cachedCounts.get(db) === entry) cachedCounts.delete(db);
  });
  return entry;
}

const BucketSchema = z.object({ id: z.number().int(), uri: z.string(), name: z.string(), count: z.number().int() });

const breakdown = <T extends z.ZodType>(bucket: T, what: string) =>
  z.object({
    buckets: z.array(bucket),
    other: z.number().int().describe(`Companies in ${what} not listed in buckets.`),
    unknown: z.number().int().describe(`Companies with no ${what}.`),
  });

export const LegalEntityStatisticsSchema = z
  .object({
    entity_type: z.literal('legal_entity'),
    total: z.number().int().describe('All companies; each breakdown (buckets + other + unknown) sums to it.'),
    by_jurisdiction: breakdown(
      BucketSchema.extend({ countryCode: z.string() }),
      `a jurisdiction (the top ${TOP_JURISDICTIONS} are listed)`,
    ),
    by_status: breakdown(BucketSchema, 'a status'),
    by_sector: breakdown(
      BucketSchema.extend({ code: z.string().describe('NACE Rev. 2 section letter.') }),
      'a primary industry (rolled up to its NACE Rev. 2 section)',
    ),
    by_registration_year: breakdown(
      z.object({ year: z.number().int(), count: z.number().int() }),
      'a registration date',
    ),
  })
  .meta({ id: 'LegalEntityStatistics' });

export type LegalEntityStatistics = z.output<typeof LegalEntityStatisticsSchema>;

/** Counts with display names, the top jurisdictions, and industries rolled up to their level-1 sector. */
export function presentLegalEntityStatistics(
  counts: LegalEntityCounts,
  reference: Reference,
  languageId: number,
): LegalEntityStatistics {
  const jurisdictions = counts.byJurisdiction.slice(0, TOP_JURISDICTIONS).map((r) => {
    const location = reference.locations.byId.get(r.id);
    return {
      id: r.id,
      uri: location?.uri ?? String(r.id),
      name: displayName(location, languageId),
      countryCode: location?.country_code ?? '',
      count: r.count,
    };
  });
  const listed = jurisdictions.reduce((sum, r) => sum + r.count, 0);

  const statuses = counts.byStatus
    .filter((r): r is { id: number; count: number } => r.id !== null)
    .map((r) => {
      const status = reference.statuses.byId.get(r.id);
      return { id: r.id, uri: status?.uri ?? String(r.id), name: displayName(status, languageId), count: r.count };
    });

  const sectors = new Map<number, number>();
  let noSector = 0;
  for (const r of counts.byIndustry) {
    const sector = r.id === null ? undefined : industryPath(reference, r.id)[0];
    if (sector) sectors.set(sector.id, (sectors.get(sector.id) ?? 0) + r.count);
    else noSector += r.count;
  }
  const bySector = [...sectors]
    .map(([id, count]) => {
      const industry = reference.industries.byId.get(id);
      return {
        id,
        uri: industry?.uri ?? String(id),
        name: displayName(industry, languageId),
        code: industry?.code ?? '',
        count,
      };
    })
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));

  const noStatus = counts.byStatus.find((r) => r.id === null)?.count ?? 0;
  const noYear = counts.byYear.find((r) => r.year === null)?.count ?? 0;

  return {
    entity_type: 'legal_entity',
    total: counts.total,
    by_jurisdiction: { buckets: jurisdictions, other: counts.total - listed, unknown: 0 },
    by_status: { buckets: statuses, other: 0, unknown: noStatus },
    by_sector: { buckets: bySector, other: 0, unknown: noSector },
    by_registration_year: {
      buckets: counts.byYear
        .filter((r): r is { year: number; count: number } => r.year !== null)
        .map((r) => ({ year: r.year, count: r.count })),
      other: 0,
      unknown: noYear,
    },
  };
}
