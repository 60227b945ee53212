import { cachedLegalEntityCounts, presentLegalEntityStatistics } from '../../core/api/legal-entity-statistics.ts';
import { toQueryString } from '../../core/filters/grammar.ts';
import { flagCodeOf, type Lang } from '../../core/reference/reference-data.ts';
import { staleReads } from '../../core/services.ts';
import type { AppServices } from '../services.ts';
import { presenter } from './present.server.ts';

// The company statistics the pages chart: the same counts as legal_entities/statistics (one cached
// count per database), named in the page language, with links to the matching search.

/** How many jurisdictions the chart shows; the rest are one "other" figure. */
export const CHART_JURISDICTIONS = 10;

export type StatisticsItem = { id: number; label: string; count: number; href: string; flag?: string };

/** Listed items, companies in an unlisted value (`other`) and companies with no value (`unknown`). */
export type StatisticsBreakdown = { items: StatisticsItem[]; other: number; unknown: number };

export type CompanyStatistics = {
  total: number;
  jurisdictions: StatisticsBreakdown;
  statuses: StatisticsBreakdown;
  sectors: StatisticsBreakdown;
  years: { items: { year: number; count: number; href: string }[]; unknown: number };
};

export async function loadCompanyStatistics(services: AppServices, lang: Lang): Promise<CompanyStatistics> {
  const { reference } = services;
  const p = presenter(reference, lang);
  const counts = await cachedLegalEntityCounts(staleReads(services)).counts;
  const stats = presentLegalEntityStatistics(counts, reference, p.languageId);
  const search = (filter: string) => p.path(`/companies/search/${filter}`);

  const jurisdictions = stats.by_jurisdiction.buckets.slice(0, CHART_JURISDICTIONS).map((b) => ({
    id: b.id,
    label: b.name,
    count: b.count,
    flag: flagCodeOf(reference, b.id),
    href: search(`f/jurisdiction-${b.uri}-${b.id}/`),
  }));
  const listed = jurisdictions.reduce((sum, j) => sum + j.count, 0);

  return {
    total: stats.total,
    jurisdictions: { items: jurisdictions, other: stats.total - listed, unknown: 0 },
    statuses: {
      items: stats.by_status.buckets.map((b) => ({
        id: b.id,
        label: b.name,
        count: b.count,
        href: search(`?status=${b.id}`),
      })),
      other: stats.by_status.other,
      unknown: stats.by_status.unknown,
    },
    sectors: {
      items: stats.by_sector.buckets.map((b) => ({
        id: b.id,
        label: b.name,
        count: b.count,
        href: search(`f/industry-${b.uri}-${b.id}/`),
      })),
      other: stats.by_sector.other,
      unknown: stats.by_sector.unknown,
    },
    years: {
      items: stats.by_registration_year.buckets.map((b) => ({
        ...b,
        href: search(
          toQueryString([
            ['dates[registration]:from', String(b.year)],
            ['dates[registration]:to', String(b.year)],
          ]),
        ),
      })),
      unknown: stats.by_registration_year.unknown,
    },
  };
}
