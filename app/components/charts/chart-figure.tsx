import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useChartFormat } from './chart-format.ts';

/** One row of a chart's data table: a label (linked where the chart links) and its count. */
export type ChartTableRow = { key: string; label: string; count: number; href?: string };

export type ChartTable = {
  /** Header of the label column (Jurisdiction, Status, Year…). */
  labelHeader: string;
  rows: ChartTableRow[];
  /** Rows under the listed values (other, not recorded, total), also noted under the chart. */
  footer: ChartTableRow[];
  /** What shares are of (the total of companies). */
  total: number;
};

type Props = {
  /** Names the chart in the page (`data-chart`), for styles and tests. */
  name: string;
  caption: string;
  /** The chart as text, for screen readers: the SVG's description. */
  description: string;
  width: number;
  height: number;
  table: ChartTable;
  /** Beside the SVG (a legend), which then keeps a fixed small width. */
  aside?: ReactNode;
  /** The SVG content, in viewBox units. */
  children: ReactNode;
};

/**
 * A server-rendered chart: a figure with its caption, the SVG (a group named by the caption and
 * described by its data in words) and the same data as a real table behind "Show as table".
 * Links drawn in the SVG are pointer shortcuts named by their label (out of the tab order); the table
 * carries the same links for everyone.
 */
export function ChartFigure({ name, caption, description, width, height, table, aside, children }: Props) {
  const { t } = useTranslation();
  const format = useChartFormat();
  const id = useId();
  const captionId = `${id}caption`;
  const descriptionId = `${id}desc`;
  const svg = (
    // A group, not an image: it holds links, and an image's content must not be interactive (ADR 0022).
    // biome-ignore lint/a11y/useSemanticElements: an SVG cannot be a fieldset.
    <svg
      className="chart-svg"
      role="group"
      aria-labelledby={captionId}
      aria-describedby={descriptionId}
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      preserveAspectRatio="xMinYMin meet"
    >
      <title>{caption}</title>
      <desc id={descriptionId}>{description}</desc>
      {children}
    </svg>
  );
  return (
    <figure className="chart" data-chart={name}>
      <figcaption id={captionId}>{caption}</figcaption>
      {aside ? (
        <div className="chart-body">
          {svg}
          {aside}
        </div>
      ) : (
        svg
      )}
      {table.footer.length > 0 ? (
        <p className="chart-note">{table.footer.map((r) => `${r.label}: ${format.number(r.count)}`).join(' · ')}</p>
      ) : null}
      <details className="chart-table" data-pref="chart-table">
        <summary>{t('statistics.showTable')}</summary>
        <ChartDataTable caption={caption} table={table} />
      </details>
    </figure>
  );
}

function ChartDataTable({ caption, table }: { caption: string; table: ChartTable }) {
  const { t } = useTranslation();
  const format = useChartFormat();
  const row = (r: ChartTableRow) => (
    <tr key={r.key} data-key={r.key}>
      <th scope="row">{r.href && r.count > 0 ? <a href={r.href}>{r.label}</a> : r.label}</th>
      <td>{format.number(r.count)}</td>
      <td>{table.total > 0 ? format.percent(r.count / table.total) : ''}</td>
    </tr>
  );
  return (
    <table className="chart-data">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{table.labelHeader}</th>
          <th scope="col">{t('statistics.companies')}</th>
          <th scope="col">{t('statistics.share')}</th>
        </tr>
      </thead>
      <tbody>{table.rows.map(row)}</tbody>
      {table.footer.length > 0 ? <tfoot>{table.footer.map(row)}</tfoot> : null}
    </table>
  );
}

/** The chart's data in words: "Germany: 1,234; France: 1,000". */
export function describeData(rows: { label: string; count: number }[], format: (n: number) => string): string {
  return rows.map((r) => `${r.label}: ${format(r.count)}`).join('; ');
}
