import { useTranslation } from 'react-i18next';
import { isLang, numberFormat } from '../../../core/i18n/i18n.ts';

export type ChartFormat = {
  /** A count, grouped as the page language writes it (20,000 · 20.000 · 20 000). */
  number: (n: number) => string;
  /** A share of 1, as a percentage with at most one decimal (70.5% · 70,5 %). */
  percent: (share: number) => string;
};

/** Number formats of the page language (the i18next instance of the page). */
export function useChartFormat(): ChartFormat {
  const { i18n } = useTranslation();
  const lang = isLang(i18n.language) ? i18n.language : 'en';
  const number = numberFormat(lang);
  const percent = numberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  return { number: (n) => number.format(n), percent: (share) => percent.format(share) };
}
