import { describe, expect, it } from 'vitest';
import {
  cachedLayoutCount,
  type GraphEdgeInput,
  type GraphNodeInput,
  layoutConnections,
} from '../../app/presenters/connections-graph.server.ts';

// The connections graph's layout is computed once per set of inputs and reused
// (docs/decisions/0040-cpu-per-request.md): what is written on it comes from each call.

const graph = (focusName: string, memberName: string, lang: 'en' | 'de') => {
  const prefix = lang === 'en' ? '' : `/${lang}`;
  const nodes: GraphNodeInput[] = [
    { id: 'c1', label: focusName, kind: 'company' },
    { id: 'm7', label: memberName, kind: 'person', href: `${prefix}/members/details/m-7/` },
    { id: 'uacme', label: 'Acme Holdings Ltd', kind: 'company', href: `${prefix}/companies/details/acme/` },
  ];
  const edges: GraphEdgeInput[] = [
    { from: 'm7', to: 'c1', label: lang === 'en' ? 'Director' : 'Geschäftsführer' },
    { from: 'm7', to: 'uacme', label: lang === 'en' ? 'Secretary' : 'Sekretär' },
  ];
  return { nodes, edges };
};

describe('connections graph layout cache', () => {
  it('reuses the geometry but lays each call’s own words and links on it', () => {
    const before = cachedLayoutCount();
    const en = graph('Focus One Ltd', 'Jane Roe', 'en');
    const first = layoutConnections('c1', en.nodes, en.edges)!;
    expect(cachedLayoutCount()).toBe(before + 1);
    // Same geometry (labels of the same lengths, same ids and edges), another language.
    const de = graph('Focus Two Ltd', 'John Doe', 'de');
    const second = layoutConnections('c1', de.nodes, de.edges)!;
    expect(cachedLayoutCount()).toBe(before + 1);
    expect(second.nodes.map((n) => [n.x, n.y, n.width])).toEqual(first.nodes.map((n) => [n.x, n.y, n.width]));
    expect(second.edges.map((e) => e.path)).toEqual(first.edges.map((e) => e.path));
    // Nothing of the first call shows through the second.
    expect(second.nodes.map((n) => n.label)).toEqual(['Focus Two Ltd', 'John Doe', 'Acme Holdings Ltd']);
    expect(second.nodes[1].href).toBe('/de/members/details/m-7/');
    expect(second.edges.map((e) => e.label)).toEqual(['Geschäftsführer', 'Sekretär']);
    expect(JSON.stringify(second)).not.toMatch(/Jane Roe|Focus One|Director|"\/members/);
    expect(first.nodes.map((n) => n.label)).toEqual(['Focus One Ltd', 'Jane Roe', 'Acme Holdings Ltd']);
  });

  it('lays a changed company out anew: another connection is another layout', () => {
    const before = cachedLayoutCount();
    const { nodes, edges } = graph('Focus Three Ltd', 'Jane Roe', 'en');
    const withOne = layoutConnections(
      'c3',
      nodes.map((n) => (n.id === 'c1' ? { ...n, id: 'c3' } : n)),
      [{ from: 'm7', to: 'c3', label: 'Director' }],
    )!;
    const withTwo = layoutConnections(
      'c3',
      nodes.map((n) => (n.id === 'c1' ? { ...n, id: 'c3' } : n)),
      edges.map((e) => (e.to === 'c1' ? { ...e, to: 'c3' } : e)),
    )!;
    expect(cachedLayoutCount()).toBe(before + 2);
    expect(withOne.edges).toHaveLength(1);
    expect(withTwo.edges).toHaveLength(2);
    expect(withTwo.edges.every((e) => e.path.startsWith('M'))).toBe(true);
    // A longer name is a wider box: a new layout, not the old one stretched.
    const renamed = layoutConnections(
      'c3',
      nodes.map((n) => (n.id === 'c1' ? { ...n, id: 'c3', label: 'Focus Three Renamed Holdings' } : n)),
      edges.map((e) => (e.to === 'c1' ? { ...e, to: 'c3' } : e)),
    )!;
    expect(cachedLayoutCount()).toBe(before + 3);
    expect(renamed.nodes[0].width).toBeGreaterThan(withTwo.nodes[0].width);
  });
});
