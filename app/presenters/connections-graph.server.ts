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
    const key = `${e.from}\u0000${e.to}`;
    if (!kept.has(e.from) || !kept.has(e.to) || e.from === e.to || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (drawn.length === 0) return null;
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 90, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of unique) {
    const text = shorten(n.label);
    g.setNode(n.id, { width: Math.round(text.length * CHAR_WIDTH + 24), height: NODE_HEIGHT });
  }
  // Ranks by distance from the focus (its neighbours one column out, theirs the next): each edge is
  // laid out from its end nearer the focus, whichever way it reads.
  const distance = distancesFrom(focusId, drawn);
  for (const e of drawn) {
    const outward = (distance.get(e.from) ?? 0) <= (distance.get(e.to) ?? 0);
    g.setEdge(outward ? e.from : e.to, outward ? e.to : e.from);
  }
  dagre.layout(g);
  const graph = g.graph();
  return {
    width: Math.ceil(graph.width ?? 0),
    height: Math.ceil(graph.height ?? 0),
    nodes: unique
      .filter((n) => g.node(n.id))
      .map((n) => {
        const box = g.node(n.id);
        return {
          ...n,
          x: box.x,
          y: box.y,
          width: box.width,
          height: box.height,
          focus: n.id === focusId,
          text: shorten(n.label),
        };
      }),
    edges: drawn.map((e) => {
      const points = (g.edge(e.from, e.to) ?? g.edge(e.to, e.from))?.points ?? [];
      const from = kept.get(e.from);
      const to = kept.get(e.to);
      return {
        ...e,
        path: points
          .map((p: { x: number; y: number }, i: number) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`)
          .join(' '),
        fromLabel: from?.label ?? '',
        toLabel: to?.label ?? '',
        fromHref: from?.href,
        toHref: to?.href,
      };
    }),
  };
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
