import dagre from '@dagrejs/dagre';

// Who is connected to whom, two steps out from a company or a person (ADR 0022): laid
// out on the server by dagre (a maintained layered-graph layout) and drawn as SVG by
// app/components/connections-graph.tsx, beside the same connections as a list of links.

export type GraphNodeInput = { id: string; label: string; kind: 'company' | 'person'; href?: string };
export type GraphEdgeInput = { from: string; to: string; label: string };

export type GraphNode = GraphNodeInput & {
  x: number;
  y: number;
  width: number;
  height: number;
  focus: boolean;
  text: string;
};
export type GraphEdge = GraphEdgeInput & {
  path: string;
  fromLabel: string;
  toLabel: string;
  fromHref?: string;
  toHref?: string;
};
export type ConnectionsGraph = { width: number; height: number; nodes: GraphNode[]; edges: GraphEdge[] };

/** The most nodes drawn: beyond it a picture stops being readable (the list still has them). */
export const GRAPH_MAX_NODES = 36;
const NODE_HEIGHT = 34;
const MAX_CHARS = 26;
const CHAR_WIDTH = 7.2;

const shorten = (text: string) => (text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text);

/**
 * Lays out the focus node (the page's company or person) and its neighbours; null when there is
 * nobody connected. Nodes past GRAPH_MAX_NODES (in the order given) and their edges are left out.
 */
export function layoutConnections(
  focusId: string,
  nodes: GraphNodeInput[],
  edges: GraphEdgeInput[],
): ConnectionsGraph | null {
  const unique = [...new Map(nodes.map((n) => [n.id, n])).values()].slice(0, GRAPH_MAX_NODES);
  const kept = new Map(unique.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const drawn = edges.filter((e) => {
    // Most edges of a large company lead past the kept nodes: those are dropped before a key is made.
    if (!kept.has(e.from) || !kept.has(e.to) || e.from === e.to) return false;
    const key = `${e.from}\u0000${e.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (drawn.length === 0) return null;
  const boxes = unique.map((n) => ({ id: n.id, width: Math.round(shorten(n.label).length * CHAR_WIDTH + 24) }));
  const geometry = layoutOf(focusId, boxes, drawn);
  return {
    width: geometry.width,
    height: geometry.height,
    nodes: unique
      .filter((n) => geometry.nodes.has(n.id))
      .map((n) => ({ ...n, ...geometry.nodes.get(n.id)!, focus: n.id === focusId, text: shorten(n.label) })),
    edges: drawn.map((e) => {
      const from = kept.get(e.from);
      const to = kept.get(e.to);
      return {
        ...e,
        path: geometry.paths.get(`${e.from}\u0000${e.to}`) ?? '',
        fromLabel: from?.label ?? '',
        toLabel: to?.label ?? '',
        fromHref: from?.href,
        toHref: to?.href,
      };
    }),
  };
}

/** Where dagre put the boxes and the edges: all a layout is, apart from what is written on it. */
type Geometry = {
  width: number;
  height: number;
  nodes: Map<string, { x: number; y: number; width: number; height: number }>;
  /** By `from\0to` of the edge as given. */
  paths: Map<string, string>;
};

/**
 * Layouts already computed, by their inputs (docs/decisions/0040-cpu-per-request.md): dagre takes
 * tens of milliseconds for a graph of 36 nodes, a third of a profile's CPU, and a company's graph is
 * the same until the company changes. The key is everything the geometry depends on — the focus,
 * each node's id and box width, each edge's ends — and nothing else: labels, links and the language
 * are laid on per request, so one viewer's page never carries another's words, and a company write
 * that changes its connections changes the key (nothing to invalidate; old layouts age out).
 */
const layouts = new Map<string, Geometry>();
/** About 5–15 KB a layout of a full graph: a few tens of MB at most. */
export const LAYOUT_CACHE_SIZE = 4000;

/** The layouts the cache holds (tests). */
export function cachedLayoutCount(): number {
  return layouts.size;
}

function layoutOf(focusId: string, boxes: { id: string; width: number }[], drawn: GraphEdgeInput[]): Geometry {
  const key = JSON.stringify([focusId, boxes.map((b) => [b.id, b.width]), drawn.map((e) => [e.from, e.to])]);
  const cached = layouts.get(key);
  if (cached) {
    // Most recently used last: the oldest is the first the map gives back.
    layouts.delete(key);
    layouts.set(key, cached);
    return cached;
  }
  const geometry = computeLayout(focusId, boxes, drawn);
  layouts.set(key, geometry);
  if (layouts.size > LAYOUT_CACHE_SIZE) layouts.delete(layouts.keys().next().value!);
  return geometry;
}

function computeLayout(focusId: string, boxes: { id: string; width: number }[], drawn: GraphEdgeInput[]): Geometry {
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 90, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const b of boxes) g.setNode(b.id, { width: b.width, height: NODE_HEIGHT });
  // Ranks by distance from the focus (its neighbours one column out, theirs the next): each edge is
  // laid out from its end nearer the focus, whichever way it reads.
  const distance = distancesFrom(focusId, drawn);
  for (const e of drawn) {
    const outward = (distance.get(e.from) ?? 0) <= (distance.get(e.to) ?? 0);
    g.setEdge(outward ? e.from : e.to, outward ? e.to : e.from);
  }
  dagre.layout(g);
  const graph = g.graph();
  const nodes: Geometry['nodes'] = new Map();
  for (const b of boxes) {
    const box = g.node(b.id);
    if (box) nodes.set(b.id, { x: box.x, y: box.y, width: box.width, height: box.height });
  }
  const paths: Geometry['paths'] = new Map();
  for (const e of drawn) {
    const points = (g.edge(e.from, e.to) ?? g.edge(e.to, e.from))?.points ?? [];
    paths.set(
      `${e.from}\u0000${e.to}`,
      points
        .map((p: { x: number; y: number }, i: number) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`)
        .join(' '),
    );
  }
  return { width: Math.ceil(graph.width ?? 0), height: Math.ceil(graph.height ?? 0), nodes, paths };
}

/** Steps from the focus to each node, along the edges either way. */
function distancesFrom(focusId: string, edges: GraphEdgeInput[]): Map<string, number> {
  const neighbours = new Map<string, string[]>();
  for (const e of edges) {
    neighbours.set(e.from, [...(neighbours.get(e.from) ?? []), e.to]);
    neighbours.set(e.to, [...(neighbours.get(e.to) ?? []), e.from]);
  }
  const distance = new Map([[focusId, 0]]);
  const queue = [focusId];
  for (let i = 0; i < queue.length; i++) {
    for (const next of neighbours.get(queue[i]) ?? []) {
      if (distance.has(next)) continue;
      distance.set(next, (distance.get(queue[i]) ?? 0) + 1);
      queue.push(next);
    }
  }
  return distance;
}
