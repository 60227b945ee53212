import { describe, expect, it } from 'vitest';
import {
  CATEGORY_COLOURS,
  CHART_WIDTH,
  layoutBars,
  layoutColumns,
  layoutDonut,
  recentYears,
  wrapLabel,
} from '../../app/components/charts/chart-layout.ts';

describe('wrapLabel', () => {
  it('keeps a label that fits on one line', () => {
    expect(wrapLabel('Germany', 20)).toEqual(['Germany']);
  });

  it('breaks at spaces, never inside a word that fits', () => {
    expect(wrapLabel('Professional, Scientific, and Technical Services', 30)).toEqual([
      'Professional, Scientific, and',
      'Technical Services',
    ]);
  });

  it('ends the last line with an ellipsis when the label needs more lines', () => {
    const lines = wrapLabel('Administrative and Support and Waste Management and Remediation Services', 30);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('Administrative and Support and');
    expect(lines[1]).toMatch(/…$/);
    expect([...lines[1]].length).toBeLessThanOrEqual(30);
    expect(wrapLabel('In liquidation', 8, 1)).toEqual(['In liqu…']);
  });

  it('cuts a word longer than a line', () => {
    expect(wrapLabel('Donaudampfschifffahrtsgesellschaft', 10)).toEqual(['Donaudamp…']);
  });

  it('counts a flag as two characters (about as wide as it is drawn)', () => {
    expect(wrapLabel('🇩🇪 Germany', 10)).toEqual(['🇩🇪 Germany']);
    expect(wrapLabel('🇩🇪 Germany', 9)).toEqual(['🇩🇪', 'Germany']);
  });
});

describe('layoutBars', () => {
  const items = [
    { label: 'Germany', n: 200 },
    { label: 'France', n: 100 },
    { label: 'Tiny', n: 1 },
    { label: 'None', n: 0 },
  ];
  const layout = layoutBars(
    items,
    (i) => i.n,
    (i) => i.label,
    { valueText: '200' },
  );

  it('scales bars linearly to the full width from zero', () => {
    expect(layout.rows.map((r) => r.barWidth)).toEqual([CHART_WIDTH, CHART_WIDTH / 2, 2, 0]);
  });

  it('stacks rows without overlap and ends at the last bar', () => {
    for (let i = 1; i < layout.rows.length; i++) {
      expect(layout.rows[i].y).toBeGreaterThanOrEqual(layout.rows[i - 1].y + layout.rows[i - 1].height);
    }
    const last = layout.rows.at(-1)!;
    expect(layout.height).toBe(last.barY + layout.barHeight);
  });

  it('gives a wrapped label more height', () => {
    const long = layoutBars(
      [{ label: 'Administrative and Support and Waste Management and Remediation Services' }, { label: 'Retail' }],
      () => 1,
      (i) => i.label,
    );
    expect(long.rows[0].lines).toHaveLength(2);
    expect(long.rows[0].height).toBeGreaterThan(long.rows[1].height);
  });
});

describe('recentYears', () => {
  it('fills the last years with zeros and sums the years before them', () => {
    const { years, earlier } = recentYears(
      [
        { year: 1990, count: 3 },
        { year: 2019, count: 1 },
        { year: 2020, count: 4 },
        { year: 2023, count: 2 },
      ],
      4,
    );
    expect(years).toEqual([
      { year: 2020, count: 4 },
      { year: 2021, count: 0 },
      { year: 2022, count: 0 },
      { year: 2023, count: 2 },
    ]);
    expect(earlier).toBe(4);
  });

  it('is empty without registrations', () => {
    expect(recentYears([], 25)).toEqual({ years: [], earlier: 0 });
  });
});

describe('layoutColumns', () => {
  const years = Array.from({ length: 25 }, (_, i) => ({ year: 2002 + i, count: i * 10 }));
  const layout = layoutColumns(
    years,
    (y) => y.count,
    (y) => String(y.year),
    (n) => n.toLocaleString('de-DE'),
  );

  it('puts columns left to right inside the plot, as tall as their value', () => {
    const { columns, plot } = layout;
    expect(columns[0].x).toBeGreaterThanOrEqual(plot.left);
    expect(columns.at(-1)!.x + columns.at(-1)!.width).toBeLessThanOrEqual(plot.right);
    for (let i = 1; i < columns.length; i++) expect(columns[i].x).toBeGreaterThan(columns[i - 1].x);
    expect(columns[0].height).toBe(0);
    expect(columns[20].height).toBeCloseTo(columns[10].height * 2);
    for (const c of columns) expect(c.y + c.height).toBeCloseTo(plot.bottom);
  });

  it('has round ticks from zero, formatted, and the plot clear of them', () => {
    expect(layout.ticks[0]).toMatchObject({ y: layout.plot.bottom, text: '0' });
    expect(layout.ticks.map((t) => t.text)).toContain('100');
    expect(layout.plot.left).toBeGreaterThan(0);
  });

  it('labels round years only, so labels do not overlap', () => {
    const texts = layout.labels.map((l) => l.text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.length).toBeLessThan(years.length);
    const step = Number(texts[1]) - Number(texts[0]);
    for (const text of texts) expect(Number(text) % step).toBe(0);
  });
});

describe('layoutDonut', () => {
  it('draws one closed arc per item, in order', () => {
    const slices = layoutDonut([{ n: 3 }, { n: 1 }], (i) => i.n, { radius: 80, thickness: 20 });
    expect(slices.map((s) => s.item.n)).toEqual([3, 1]);
    for (const s of slices) expect(s.path).toMatch(/^M.*Z$/);
  });
});

describe('CATEGORY_COLOURS', () => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };

  it('stand out from the white background by at least 3:1', () => {
    for (const colour of CATEGORY_COLOURS) expect(1.05 / (luminance(colour) + 0.05)).toBeGreaterThanOrEqual(3);
  });
});
