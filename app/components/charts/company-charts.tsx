import { useTranslation } from 'react-i18next';
import type { CompanyStatistics, StatisticsBreakdown } from '../../presenters/statistics.server.ts';
import { BarChart } from './bar-chart.tsx';
import type { ChartTableRow } from './chart-figure.tsx';
import { recentYears } from './chart-layout.ts';
import { ColumnChart } from './column-chart.tsx';
import { DonutChart } from './donut-chart.tsx';

// The company statistics (app/presenters/statistics.server.ts) as charts, in the page language.

/** How many years the registrations chart shows, up to the latest. */
export const CHART_YEARS = 25;

function rows(breakdown: StatisticsBreakdown): ChartTableRow[] {
  return breakdown.items.map((item) => ({
    key: String(item.id),
    label: item.label,
    count: item.count,
    href: item.href,
  }));
}

/** The rows under a breakdown: companies not listed, with no value, and all of them. */
function useFooter(total: number, parts: { key: string; label: string; count: number }[]): ChartTableRow[] {
  const { t } = useTranslation();
  return [...parts.filter((p) => p.count > 0), { key: 'total', label: t('statistics.total'), count: total }];
}

export function JurisdictionChart({ jurisdictions, total }: { jurisdictions: StatisticsBreakdown; total: number }) {
  const { t } = useTranslation();
  const footer = useFooter(total, [
    { key: 'other', label: t('statistics.otherJurisdictions'), count: jurisdictions.other },
    { key: 'unknown', label: t('statistics.notRecorded'), count: jurisdictions.unknown },
  ]);
  return (
    <BarChart
      name="jurisdictions"
      caption={t('statistics.byJurisdiction', { top: jurisdictions.items.length })}
      labelHeader={t('statistics.jurisdiction')}
      items={jurisdictions.items.map((item) => ({
        key: String(item.id),
        label: item.label,
        count: item.count,
        href: item.href,
        flag: item.flag,
      }))}
      footer={footer}
      total={total}
    />
  );
}

export function SectorChart({ sectors, total }: { sectors: StatisticsBreakdown; total: number }) {
  const { t } = useTranslation();
  const footer = useFooter(total, [
    { key: 'other', label: t('statistics.otherSectors'), count: sectors.other },
    { key: 'unknown', label: t('statistics.noIndustry'), count: sectors.unknown },
  ]);
  return (
    <BarChart
      name="sectors"
      caption={t('statistics.bySector')}
      labelHeader={t('statistics.sector')}
      items={rows(sectors)}
      footer={footer}
      total={total}
    />
  );
}

export function StatusChart({ statuses, total }: { statuses: StatisticsBreakdown; total: number }) {
  const { t } = useTranslation();
  const footer = useFooter(total, [
    { key: 'other', label: t('statistics.otherStatuses'), count: statuses.other },
    { key: 'unknown', label: t('statistics.notRecorded'), count: statuses.unknown },
  ]);
  return (
    <DonutChart
      name="statuses"
      caption={t('statistics.byStatus')}
      labelHeader={t('statistics.status')}
      items={rows(statuses)}
      footer={footer}
      total={total}
    />
  );
}

export function RegistrationYearChart({ years, total }: { years: CompanyStatistics['years']; total: number }) {
  const { t } = useTranslation();
  const { years: shown, earlier } = recentYears(years.items, CHART_YEARS);
  const hrefs = new Map(years.items.map((y) => [y.year, y.href]));
  const first = shown[0]?.year;
  const footer = useFooter(total, [
    { key: 'earlier', label: t('statistics.before', { year: String(first) }), count: earlier },
    { key: 'unknown', label: t('statistics.noRegistrationDate'), count: years.unknown },
  ]);
  if (shown.length === 0) return null;
  return (
    <ColumnChart
      name="years"
      caption={t('statistics.byYear', { from: String(first), to: String(shown[shown.length - 1].year) })}
      labelHeader={t('statistics.year')}
      items={shown.map((y) => ({
        key: String(y.year),
        label: String(y.year),
        count: y.count,
        href: hrefs.get(y.year),
      }))}
      footer={footer}
      total={total}
    />
  );
}
