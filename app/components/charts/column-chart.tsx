import { ChartFigure, type ChartTableRow, describeData } from './chart-figure.tsx';
import { useChartFormat } from './chart-format.ts';
import { CHART_WIDTH, layoutColumns } from './chart-layout.ts';

type Props = {
  name: string;
  caption: string;
  labelHeader: string;
  /** One column each, left to right (labels are short: years). */
  items: ChartTableRow[];
  footer: ChartTableRow[];
  total: number;
};

/** Columns on a linear scale with a few round grid lines; every few columns labelled underneath. */
export function ColumnChart({ name, caption, labelHeader, items, footer, total }: Props) {
  const format = useChartFormat();
  const layout = layoutColumns(
    items,
    (item) => item.count,
    (item) => item.label,
    format.number,
    { width: CHART_WIDTH },
  );
  const { plot } = layout;
  return (
    <ChartFigure
      name={name}
      caption={caption}
      description={describeData(items, format.number)}
      width={layout.width}
      height={layout.height}
      table={{ labelHeader, rows: items, footer, total }}
    >
      {layout.ticks.map((tick) => (
        <g key={tick.y}>
          <line x1={plot.left} x2={plot.right} y1={tick.y} y2={tick.y} className="chart-gridline" />
          <text x={plot.left - 6} y={tick.y + 5} textAnchor="end" className="chart-tick">
            {tick.text}
          </text>
        </g>
      ))}
      {layout.columns.map((column) => {
        const rect = (
          <rect x={column.x} y={column.y} width={column.width} height={column.height} className="chart-bar" />
        );
        // A pointer shortcut to the search; keyboard and screen-reader users follow the table's links.
        return column.item.href && column.item.count > 0 ? (
          <a
            key={column.item.key}
            href={column.item.href}
            tabIndex={-1}
            aria-label={column.item.label}
            className="chart-link"
          >
            {rect}
          </a>
        ) : (
          <g key={column.item.key}>{rect}</g>
        );
      })}
      <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} className="chart-axis" />
      {layout.labels.map((label) => (
        <text key={label.x} x={label.x} y={plot.bottom + 18} textAnchor="middle" className="chart-tick">
          {label.text}
        </text>
      ))}
    </ChartFigure>
  );
}
