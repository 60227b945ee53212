import { scaleBand, scaleLinear } from 'd3-scale';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinancialsView } from '../../presenters/profile-summary.server.ts';

const WIDTH = 480;
const HEIGHT = 220;
const PLOT = { left: 56, right: 8, top: 8, bottom: 24 };

/**
 * Revenue and profit by year as grouped columns, drawn on the server (ADR 0022): an image named by
 * its caption and described by its figures in words, the same figures in a table behind "Show as
 * table". A loss goes below the zero line.
 */
export function FinancialsChart({ chart }: { chart: FinancialsView }) {
  const { t } = useTranslation();
  const id = useId();
  const years = chart.years.map((y) => String(y.year));
  const x = scaleBand()
    .domain(years)
    .range([PLOT.left, WIDTH - PLOT.right])
    .padding(0.25);
  const series = scaleBand().domain(['revenue', 'profit']).range([0, x.bandwidth()]).padding(0.1);
  const values = chart.ticks.map((tick) => tick.value);
  const y = scaleLinear()
    .domain([Math.min(...values), Math.max(...values)])
    .range([HEIGHT - PLOT.bottom, PLOT.top]);
  const zero = y(0);
  const column = (year: string, key: 'revenue' | 'profit', value: number | null) => {
    if (value === null) return null;
    const top = Math.min(y(value), zero);
    const height = Math.max(1, Math.abs(y(value) - zero));
    return (
      <rect
        key={`${year}-${key}`}
        x={round((x(year) ?? 0) + (series(key) ?? 0))}
        y={round(top)}
        width={round(series.bandwidth())}
        height={round(height)}
        className={`chart-${key}`}
      />
    );
  };
  return (
    <figure className="chart financials-chart" data-chart="financials">
      <figcaption id={`${id}caption`}>{chart.caption}</figcaption>
      <ul className="chart-legend chart-legend-row" aria-hidden="true">
        <li>
          <span className="chart-swatch chart-revenue" /> {t('profile.financials.revenue')}
        </li>
        <li>
          <span className="chart-swatch chart-profit" /> {t('profile.financials.profit')}
        </li>
      </ul>
      <svg
        className="chart-svg"
        role="img"
        aria-labelledby={`${id}caption`}
        aria-describedby={`${id}desc`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        <title>{chart.caption}</title>
        <desc id={`${id}desc`}>{chart.description}</desc>
        {chart.ticks.map((tick) => (
          <g key={tick.value}>
            <line
              x1={PLOT.left}
              x2={WIDTH - PLOT.right}
              y1={round(y(tick.value))}
              y2={round(y(tick.value))}
              className={tick.value === 0 ? 'chart-axis' : 'chart-gridline'}
            />
            <text x={PLOT.left - 6} y={round(y(tick.value) + 4)} textAnchor="end" className="chart-tick">
              {tick.text}
            </text>
          </g>
        ))}
        {chart.years.map((year) => (
          <g key={year.year}>
            {column(String(year.year), 'revenue', year.revenue)}
            {column(String(year.year), 'profit', year.profit)}
            <text
              x={round((x(String(year.year)) ?? 0) + x.bandwidth() / 2)}
              y={HEIGHT - 6}
              textAnchor="middle"
              className="chart-tick"
            >
              {year.year}
            </text>
          </g>
        ))}
      </svg>
      <details className="chart-table" data-pref="chart-table">
        <summary>{t('statistics.showTable')}</summary>
        <table className="chart-data">
          <caption>{chart.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('profile.financials.year')}</th>
              <th scope="col">{t('profile.financials.revenue')}</th>
              <th scope="col">{t('profile.financials.profit')}</th>
            </tr>
          </thead>
          <tbody>
            {chart.years.map((year) => (
              <tr key={year.year}>
                <th scope="row">{year.year}</th>
                <td>{year.revenueText}</td>
                <td>{year.profitText}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

const round = (n: number) => Math.round(n * 10) / 10;
