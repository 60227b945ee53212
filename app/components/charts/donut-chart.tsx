import { useTranslation } from 'react-i18next';
import { ChartFigure, type ChartTableRow, describeData } from './chart-figure.tsx';
import { useChartFormat } from './chart-format.ts';
import { categoryColour, layoutDonut } from './chart-layout.ts';

type Props = {
  name: string;
  caption: string;
  labelHeader: string;
  items: ChartTableRow[];
  footer: ChartTableRow[];
  /** What the shares are of; the centre of the donut shows it. */
  total: number;
};

const RADIUS = 80;
const THICKNESS = 26;

/**
 * A donut of shares (clockwise from the top, in the given order) with the total in its centre,
 * and beside it a legend of labels and percentages in HTML, which wraps as the page narrows.
 */
export function DonutChart({ name, caption, labelHeader, items, footer, total }: Props) {
  const { t } = useTranslation();
  const format = useChartFormat();
  const slices = layoutDonut(items, (item) => item.count, { radius: RADIUS, thickness: THICKNESS });
  const share = (count: number) => format.percent(total > 0 ? count / total : 0);
  const legend = (
    <ul className="chart-legend">
      {items.map((item, i) => (
        <li key={item.key}>
          <span className="chart-swatch" style={{ background: categoryColour(i) }} />
          <span className="chart-legend-label">{item.label}</span>
          <span className="chart-legend-value">{share(item.count)}</span>
        </li>
      ))}
    </ul>
  );
  return (
    <ChartFigure
      name={name}
      caption={caption}
      description={describeData(items, format.number)}
      width={2 * RADIUS}
      height={2 * RADIUS}
      table={{ labelHeader, rows: items, footer, total }}
      aside={legend}
    >
      <g transform={`translate(${RADIUS},${RADIUS})`}>
        {slices.map((slice, i) => {
          const path = <path d={slice.path} fill={categoryColour(i)} className="chart-slice" />;
          // A pointer shortcut to the search; keyboard and screen-reader users follow the table's links.
          return slice.item.href ? (
            <a
              key={slice.item.key}
              href={slice.item.href}
              tabIndex={-1}
              aria-label={slice.item.label}
              className="chart-link"
            >
              {path}
            </a>
          ) : (
            <g key={slice.item.key}>{path}</g>
          );
        })}
        <text y={-2} textAnchor="middle" className="chart-total">
          {format.number(total)}
        </text>
        <text y={16} textAnchor="middle" className="chart-label">
          {t('statistics.companiesInCentre', { count: total })}
        </text>
      </g>
    </ChartFigure>
  );
}
