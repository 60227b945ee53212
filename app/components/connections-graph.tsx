import { useTranslation } from 'react-i18next';
import type { ConnectionsGraph } from '../presenters/connections-graph.server.ts';
import { ScrollFrame } from './scroll-frame.tsx';

/**
 * The connections picture (drawn on the server, no script) and the same connections as a list of
 * links: the picture is decoration for screen readers (aria-hidden), the list is what they read.
 */
export function ConnectionsGraphView({ graph, id }: { graph: ConnectionsGraph; id: string }) {
  const { t } = useTranslation();
  return (
    <section className="profile-section connections-graph" aria-labelledby={`${id}-title`} id={id}>
      <h2 id={`${id}-title`}>{t('people.graph.title')}</h2>
      <GraphPicture graph={graph} />
      <details className="graph-list">
        <summary>{t('people.graph.list')}</summary>
        <ul>
          {graph.edges.map((e) => (
            <li key={`${e.from}-${e.to}`}>
              {e.fromHref ? <a href={e.fromHref}>{e.fromLabel}</a> : e.fromLabel} — {e.label} —{' '}
              {e.toHref ? <a href={e.toHref}>{e.toLabel}</a> : e.toLabel}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

/**
 * The picture alone (laid out by app/presenters/connections-graph.server.ts): decoration for screen
 * readers, so whatever shows it says the same in words beside it.
 */
export function GraphPicture({ graph }: { graph: ConnectionsGraph }) {
  return (
    <ScrollFrame className="graph-frame">
      <svg
        className="graph-svg"
        viewBox={`0 0 ${graph.width} ${graph.height}`}
        width={graph.width}
        height={graph.height}
        aria-hidden="true"
        focusable="false"
      >
        {graph.edges.map((e) => (
          <path key={`${e.from}-${e.to}`} d={e.path} className="graph-edge" />
        ))}
        {graph.nodes.map((n) => (
          <g key={n.id} className={`graph-node graph-${n.kind}${n.focus ? ' graph-focus' : ''}`}>
            <rect
              x={n.x - n.width / 2}
              y={n.y - n.height / 2}
              width={n.width}
              height={n.height}
              rx={n.kind === 'person' ? n.height / 2 : 4}
            />
            <text x={n.x} y={n.y} dominantBaseline="central" textAnchor="middle">
              {n.text}
            </text>
          </g>
        ))}
      </svg>
    </ScrollFrame>
  );
}
