import { scaleBand, scaleLinear } from 'd3-scale';
import { arc, pie } from 'd3-shape';

// Geometry of the server-rendered charts, in SVG user units. The SVGs scale with their viewBox to
// the width of the page (down to 360 px screens), so every chart is laid out for one width and
// text is wrapped here, where it can be measured roughly: SVG text does not wrap by itself.

/** Width of every chart's viewBox. */
export const CHART_WIDTH = 320;
/** Font size of chart text (styles.css sets the same on `.chart text`). */
export const FONT_SIZE = 14;
/** Average advance of a glyph of the UI sans-serif, as a share of the font size. */
const GLYPH = 0.56;
/** Distance between two baselines of chart text. */
export const LINE_HEIGHT = 18;

/** Coordinates to a tenth of a unit: finer than a pixel, and short in the HTML. */
const round = (n: number) => Math.round(n * 10) / 10;

/** About how many characters of chart text fit in `width` units. */
export function charsThatFit(width: number, fontSize = FONT_SIZE): number {
  return Math.max(1, Math.floor(width / (fontSize * GLYPH)));
}

/** About how wide `text` is drawn, by code points (a flag is two: about as wide as its emoji). */
export function textWidth(text: string, fontSize = FONT_SIZE): number {
  return [...text].length * fontSize * GLYPH;
}

/**
 * Breaks a label into at most `maxLines` lines of at most `maxChars` characters, at spaces; what
 * does not fit ends the last line with an ellipsis (the table fallback has the whole label).
 */
export function wrapLabel(text: string, maxChars: number, maxLines = 2): string[] {
  const length = (s: string) => [...s].length;
  const words = text.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const candidate = line === '' ? words[i] : `${line} ${words[i]}`;
    if (length(candidate) <= maxChars) {
      line = candidate;
    } else if (line !== '' && lines.length < maxLines - 1) {
      // Start a new line and try this word again there.
      lines.push(line);
      line = '';
      i--;
    } else {
      // The last line is full, or one word is longer than a line: cut the rest and stop.
      const rest = [candidate, ...words.slice(i + 1)].join(' ');
      lines.push(
        `${[...rest]
          .slice(0, maxChars - 1)
          .join('')
          .trimEnd()}…`,
      );
      return lines;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

export type BarRow<T> = {
  item: T;
  /** The label, wrapped; line i has its baseline at `labelY[i]`. */
  lines: string[];
  labelY: number[];
  /** Top of the row (for a link or hit area covering label and bar) and its height. */
  y: number;
  height: number;
  barY: number;
  barWidth: number;
};

export type BarLayout<T> = { rows: BarRow<T>[]; width: number; height: number; barHeight: number };

const BAR_HEIGHT = 12;
const BAR_GAP = 4;
const ROW_GAP = 10;

/**
 * A horizontal bar list: each row is its label (left) and value (right) on one line, above a bar
 * as long as the value on a linear scale from 0 to the largest value. `valueText` is the widest
 * value label, to keep the label lines clear of it.
 */
export function layoutBars<T>(
  items: T[],
  value: (item: T) => number,
  label: (item: T) => string,
  options: { width?: number; valueText?: string } = {},
): BarLayout<T> {
  const width = options.width ?? CHART_WIDTH;
  const valueSpace = options.valueText ? textWidth(options.valueText) + 12 : 0;
  const maxChars = charsThatFit(width - valueSpace);
  const max = Math.max(0, ...items.map(value));
  const x = scaleLinear()
    .domain([0, max || 1])
    .range([0, width]);
  let y = 0;
  const rows = items.map((item) => {
    const lines = wrapLabel(label(item), maxChars);
    const labelY = lines.map((_, i) => y + FONT_SIZE + i * LINE_HEIGHT);
    const barY = y + lines.length * LINE_HEIGHT + BAR_GAP;
    const v = value(item);
    // A bar for a count, however small, stays visible.
    const barWidth = v > 0 ? Math.max(2, round(x(v))) : 0;
    const row: BarRow<T> = { item, lines, labelY, y, height: barY + BAR_HEIGHT - y, barY, barWidth };
    y = barY + BAR_HEIGHT + ROW_GAP;
    return row;
  });
  return { rows, width, height: Math.max(0, y - ROW_GAP), barHeight: BAR_HEIGHT };
}

export type YearCount = { year: number; count: number };

/**
 * The last `span` years up to the latest year with companies, one entry per year (0 where none
 * registered), and how many registered before them.
 */
export function recentYears(byYear: YearCount[], span: number): { years: YearCount[]; earlier: number } {
  if (byYear.length === 0) return { years: [], earlier: 0 };
  const last = Math.max(...byYear.map((y) => y.year));
  const first = last - span + 1;
  const counts = new Map(byYear.map((y) => [y.year, y.count]));
  const years = Array.from({ length: span }, (_, i) => ({ year: first + i, count: counts.get(first + i) ?? 0 }));
  const earlier = byYear.filter((y) => y.year < first).reduce((sum, y) => sum + y.count, 0);
  return { years, earlier };
}

export type Column<T> = { item: T; x: number; y: number; width: number; height: number };

export type ColumnLayout<T> = {
  columns: Column<T>[];
  /** Horizontal grid lines with their value labels (at the left of the plot). */
  ticks: { y: number; text: string }[];
  /** Labels under the columns: every `labelStep`-th one, so they do not overlap. */
  labels: { x: number; text: string }[];
  plot: { left: number; top: number; right: number; bottom: number };
  width: number;
  height: number;
};

/**
 * A column chart: band scale across, linear scale (rounded to nice ticks) up; tick values are
 * printed with `format`, and the plot starts right of the widest of them.
 */
export function layoutColumns<T>(
  items: T[],
  value: (item: T) => number,
  label: (item: T) => string,
  format: (n: number) => string,
  options: { width?: number; plotHeight?: number; tickCount?: number } = {},
): ColumnLayout<T> {
  const width = options.width ?? CHART_WIDTH;
  const plotHeight = options.plotHeight ?? 160;
  const top = FONT_SIZE / 2 + 2;
  const bottom = top + plotHeight;
  const max = Math.max(0, ...items.map(value));
  const y = scaleLinear()
    .domain([0, max || 1])
    .range([bottom, top])
    .nice(options.tickCount ?? 4);
  const tickValues = y.ticks(options.tickCount ?? 4).filter((t) => Number.isInteger(t));
  const tickTexts = tickValues.map(format);
  const left = Math.ceil(Math.max(...tickTexts.map((t) => textWidth(t)))) + 8;
  // Room for the last column's label, centred under it.
  const right = width - 12;
  const x = scaleBand<number>()
    .domain(items.map((_, i) => i))
    .range([left, right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const columns = items.map((item, i) => {
    const top = round(y(value(item)));
    return { item, x: round(x(i) ?? left), y: top, width: round(x.bandwidth()), height: round(bottom - top) };
  });
  const widestLabel = Math.max(0, ...items.map((item) => textWidth(label(item))));
  const labelStep = [1, 2, 5, 10, 20, 50].find((s) => s * x.step() >= widestLabel + 6) ?? items.length;
  const labels = items
    .map((item, i) => ({ item, i }))
    .filter(({ item, i }) => {
      const text = label(item);
      // Round years (2010, 2015) where labels are numbers; else every labelStep-th from the first.
      return /^\d+$/.test(text) ? Number(text) % labelStep === 0 : i % labelStep === 0;
    })
    .map(({ item, i }) => ({ x: round((x(i) ?? left) + x.bandwidth() / 2), text: label(item) }));
  return {
    columns,
    ticks: tickValues.map((t, i) => ({ y: round(y(t)), text: tickTexts[i] })),
    labels,
    plot: { left, top, right, bottom },
    width,
    height: bottom + LINE_HEIGHT + 4,
  };
}

export type Slice<T> = { item: T; path: string };

/** A donut: one arc per item, in the given order, clockwise from the top. */
export function layoutDonut<T>(
  items: T[],
  value: (item: T) => number,
  options: { radius: number; thickness: number },
): Slice<T>[] {
  const arcs = pie<T>()
    .value(value)
    .sort(null)
    .padAngle(items.length > 1 ? 0.01 : 0)(items);
  const shape = arc<(typeof arcs)[number]>()
    .innerRadius(options.radius - options.thickness)
    .outerRadius(options.radius);
  return arcs.map((a) => ({ item: a.data, path: shape(a) ?? '' }));
}

/**
 * Fill colours of categories, in order: each has a contrast of at least 3:1 against the white
 * chart background (WCAG 1.4.11), and each is a clearly different hue from its neighbours.
 */
export const CATEGORY_COLOURS = [
  '#17663a', // green
  '#5b6675', // slate
  '#b3261e', // red
  '#8a5a00', // ochre
  '#6b3fa0', // purple
  '#00727a', // teal
  '#a3367a', // magenta
  '#1f4e8c', // blue
] as const;

export function categoryColour(index: number): string {
  return CATEGORY_COLOURS[index % CATEGORY_COLOURS.length];
}
