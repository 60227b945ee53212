import { ChartFigure, type ChartTableRow, describeData } from './chart-figure.tsx';
import { useChartFormat } from './chart-format.ts';
import { CHART_WIDTH, layoutBars } from './chart-layout.ts';

export type BarItem = ChartTableRow & {
  /** A flag's ISO code: its image is drawn before the label in the chart only, not in the table. */
  flag?: string;
};

/** Where a flag goes in a label's first line: two glyphs wide and a space (U+FFFC marks an object). */
const FLAG_SLOT = '\uFFFC\uFFFC';
const FLAG_WIDTH = 16;
const FLAG_HEIGHT = 12;

type Props = {
  name: string;
  caption: string;
  labelHeader: string;
  items: BarItem[];
  /** Table rows under the items (other, not recorded, total). */
  footer: ChartTableRow[];
  /** What the table's shares are of. */
  total: number;
};

/**
 * Horizontal bars, one row per item in the given order: the label and the formatted count on one
 * line, the bar under them, on a linear scale from zero to the largest count across the full width.
 */
export function BarChart({ name, caption, labelHeader, items, footer, total }: Props) {
  const format = useChartFormat();
  const widest = items.map((item) => format.number(item.count)).reduce((w, s) => (s.length > w.length ? s : w), '');
  const layout = layoutBars(
    items,
    (item) => item.count,
    (item) => (item.flag ? `${FLAG_SLOT} ${item.label}` : item.label),
    { width: CHART_WIDTH, valueText: widest },
  );
  return (
    <ChartFigure
      name={name}
      caption={caption}
      description={describeData(items, format.number)}
      width={layout.width}
      height={layout.height}
      table={{ labelHeader, rows: items, footer, total }}
    >
      {layout.rows.map((row) => {
        const body = (
          <>
            {row.item.flag ? (
              <image
                href={`/flags/${row.item.flag}.svg`}
                x={0}
                y={row.labelY[0] - FLAG_HEIGHT}
                width={FLAG_WIDTH}
                height={FLAG_HEIGHT}
                preserveAspectRatio="none"
              />
            ) : null}
            {row.lines.map((line, i) =>
              line.startsWith(FLAG_SLOT) ? (
                <text key={row.labelY[i]} x={FLAG_WIDTH + 6} y={row.labelY[i]} className="chart-label">
                  {line.slice(FLAG_SLOT.length).trimStart()}
                </text>
              ) : (
                <text key={row.labelY[i]} x={0} y={row.labelY[i]} className="chart-label">
                  {line}
                </text>
              ),
            )}
            <text x={layout.width} y={row.labelY[0]} textAnchor="end" className="chart-value">
              {format.number(row.item.count)}
            </text>
            <rect x={0} y={row.barY} width={layout.width} height={layout.barHeight} rx={2} className="chart-track" />
            <rect x={0} y={row.barY} width={row.barWidth} height={layout.barHeight} rx={2} className="chart-bar" />
          </>
        );
        // A pointer shortcut to the search; keyboard and screen-reader users follow the table's links.
        return row.item.href ? (
          <a key={row.item.key} href={row.item.href} tabIndex={-1} className="chart-link">
            <rect x={0} y={row.y} width={layout.width} height={row.height} className="chart-hit" />
            {body}
          </a>
        ) : (
          <g key={row.item.key}>{body}</g>
        );
      })}
    </ChartFigure>
  );
}
