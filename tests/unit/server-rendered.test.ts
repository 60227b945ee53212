import { describe, expect, it } from 'vitest';
import { hasServerOnlyData, serverRendered } from '../../app/server-rendered.ts';

describe('serverRendered loader data', () => {
  it('keeps the server-only fields readable but out of what an encoder walks', () => {
    const page = { rows: [1, 2, 3] };
    const data = serverRendered({ seo: { title: 't' } }, { page });
    // The server render and meta read every field as usual.
    expect(data.page).toBe(page);
    expect(data.seo.title).toBe('t');
    // React Router's turbo-stream encoder lists Object.keys: only the sent fields.
    expect(Object.keys(data)).toEqual(['seo']);
    expect(JSON.parse(JSON.stringify(data))).toEqual({ seo: { title: 't' } });
  });

  it('is recognised, so that a hydrating page refuses it', () => {
    expect(hasServerOnlyData(serverRendered({}, { page: 1 }))).toBe(true);
    expect(hasServerOnlyData({ page: 1 })).toBe(false);
    expect(hasServerOnlyData(null)).toBe(false);
  });
});
