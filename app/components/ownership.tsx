import { useTranslation } from 'react-i18next';
import type {
  ControlledView,
  GroupView,
  OwnershipLinkView,
  OwnershipView,
  OwnerView,
} from '../presenters/ownership.server.ts';
import { GraphPicture } from './connections-graph.tsx';
import { Flag } from './flag.tsx';
import { ScrollFrame } from './scroll-frame.tsx';

// The profile's Ownership section and the person page's "Companies they control" (ADR 0038,
// "Display"): a picture drawn as the connections graph is, and beside it the same in words — the
// list is what screen readers read and what a phone stacks under the picture. No script: the
// group is browsed with links (`?group_parent=…&group_cursor=…`).

function Owner({ owner }: { owner: OwnerView }) {
  return (
    <>
      <Flag code={owner.flag} />
      {owner.href ? <a href={owner.href}>{owner.text}</a> : <span>{owner.text}</span>}
      {owner.note ? <span className="note"> · {owner.note}</span> : null}
    </>
  );
}

/** One link of ownership as a card: who, how (relation, natures, share), when, and where it is said. */
function OwnershipLinkCard({ link }: { link: OwnershipLinkView }) {
  const { t } = useTranslation();
  return (
    <div className="ownership-link" data-current={link.current ? 'true' : 'false'}>
      <p className="ownership-owner">
        <Owner owner={link.owner} />
      </p>
      <p className="ownership-relation">
        {link.relation} ·{' '}
        <span className={`badge ${link.current ? 'status-active' : 'status-inactive'}`}>{link.currentText}</span>
      </p>
      <dl className="ownership-facts">
        {link.natures.length > 0 ? (
          <div>
            <dt>{t('ownership.natures')}</dt>
            <dd>{link.natures.join(' · ')}</dd>
          </div>
        ) : null}
        {link.share ? (
          <div>
            <dt>{t('ownership.shareLabel')}</dt>
            <dd>{link.share}</dd>
          </div>
        ) : null}
        {link.period ? (
          <div>
            <dt>{t('ownership.periodLabel')}</dt>
            <dd>{link.period}</dd>
          </div>
        ) : null}
        {link.validation ? (
          <div>
            <dt>{t('ownership.validationLabel')}</dt>
            <dd>{link.validation}</dd>
          </div>
        ) : null}
      </dl>
      {link.sources ? <p className="provenance">{link.sources}</p> : null}
      {link.disagreement ? <p className="ownership-disagreement">{link.disagreement}</p> : null}
    </div>
  );
}

/** The group below, one level at a time: its subsidiaries, each opening its own, paged by links. */
function GroupBrowser({ group }: { group: GroupView }) {
  const { t } = useTranslation();
  return (
    <section id="ownership-group" className="ownership-group" aria-labelledby="ownership-group-title">
      <h3 id="ownership-group-title">{t('ownership.group.title')}</h3>
      <p>{group.summary}</p>
      {group.trail.length > 1 ? (
        <nav className="breadcrumbs" aria-label={t('ownership.group.trail')}>
          <ol className="ownership-trail">
            {group.trail.map((step) => (
              <li key={step.key}>
                {step.href ? <a href={step.href}>{step.text}</a> : <span aria-current="location">{step.text}</span>}
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <h4 id="ownership-group-level">{group.levelTitle}</h4>
      {group.nodes.length === 0 ? (
        <p className="muted">{t('ownership.group.none')}</p>
      ) : (
        <ul className="ownership-level" aria-labelledby="ownership-group-level">
          {group.nodes.map((node) => (
            <li key={node.key}>
              <Owner owner={node.company} />
              {node.status ? <span className="note"> · {node.status}</span> : null}
              {node.childrenHref ? (
                <>
                  {' '}
                  ·{' '}
                  <a href={node.childrenHref} className="ownership-open">
                    {node.childrenText}
                    <span className="visually-hidden"> — {node.company.text}</span>
                  </a>
                </>
              ) : null}
              {node.sources ? <span className="provenance"> · {node.sources}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">{group.shownText}</p>
      {group.nextHref || group.previousHref ? (
        <nav className="ownership-pages" aria-label={t('ownership.group.pages')}>
          {group.firstHref ? <a href={group.firstHref}>{t('ownership.group.first')}</a> : null}{' '}
          {group.previousHref ? (
            <a href={group.previousHref} rel="prev">
              {t('ownership.group.previous')}
            </a>
          ) : null}{' '}
          {group.nextHref ? (
            <a href={group.nextHref} rel="next">
              {t('ownership.group.next')}
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/** The Ownership section's body: the picture and the list beside it, then the group below. */
export function OwnershipBody({ ownership }: { ownership: OwnershipView }) {
  const { t } = useTranslation();
  if (ownership.empty) return <p className="muted">{t('ownership.empty')}</p>;
  return (
    <>
      <div className={ownership.graph ? 'ownership-views' : undefined}>
        {ownership.graph ? (
          <figure className="ownership-picture">
            <figcaption className="visually-hidden">{t('ownership.picture')}</figcaption>
            <GraphPicture graph={ownership.graph} />
          </figure>
        ) : null}
        <div className="ownership-list">
          <h3>{t('ownership.chain')}</h3>
          {ownership.chain.length > 0 ? (
            <ol className="ownership-chain">
              {ownership.chain.map((link) => (
                <li key={link.key}>
                  <OwnershipLinkCard link={link} />
                </li>
              ))}
            </ol>
          ) : null}
          <p className="ownership-end" data-chain-end={ownership.chainEnd.code}>
            {ownership.chainEnd.text}
          </p>
          {ownership.ultimateParent ? (
            <>
              <h3>{t('ownership.ultimateStated')}</h3>
              <OwnershipLinkCard link={ownership.ultimateParent.link} />
              {ownership.ultimateParent.differs ? (
                <p className="ownership-disagreement">{ownership.ultimateParent.differs}</p>
              ) : null}
            </>
          ) : null}
          <h3>{t('ownership.owners')}</h3>
          {ownership.beneficialOwners.length > 0 ? (
            <ul className="ownership-owners">
              {ownership.beneficialOwners.map((link) => (
                <li key={link.key}>
                  <OwnershipLinkCard link={link} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('ownership.ownersNone')}</p>
          )}
          {ownership.exceptions.length > 0 ? (
            <>
              <h3>{t('ownership.exceptions')}</h3>
              <ul className="ownership-exceptions">
                {ownership.exceptions.map((e) => (
                  <li key={e.key}>
                    <strong>{e.relation}</strong>: {e.reasons}
                    {e.sources ? <span className="provenance"> · {e.sources}</span> : null}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      </div>
      {ownership.group ? <GroupBrowser group={ownership.group} /> : null}
    </>
  );
}

/** The person page's "Companies they control": a table on a wide screen, cards on a phone. */
export function ControlledCompanies({ rows }: { rows: ControlledView[] }) {
  const { t } = useTranslation();
  return (
    <section className="profile-section" aria-labelledby="controlled-companies">
      <h2 id="controlled-companies">
        {t('ownership.controlled')} <span className="count">({rows.length})</span>
      </h2>
      {rows.length === 0 ? (
        <p className="muted">{t('ownership.controlledNone')}</p>
      ) : (
        <ScrollFrame className="table-wrap">
          <table className="results-table style-2 controlled-table">
            <thead>
              <tr>
                <th scope="col">{t('ownership.company')}</th>
                <th scope="col">{t('ownership.natures')}</th>
                <th scope="col">{t('ownership.shareLabel')}</th>
                <th scope="col">{t('ownership.currentLabel')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} data-current={r.current ? 'true' : 'false'}>
                  <td data-column="company">
                    <Owner owner={r.company} />
                    {r.sources ? <span className="provenance"> · {r.sources}</span> : null}
                  </td>
                  <td data-column="natures">{r.natures.join(' · ')}</td>
                  <td data-column="share">{r.share ?? ''}</td>
                  <td data-column="current">
                    <span className={`badge ${r.current ? 'status-active' : 'status-inactive'}`}>{r.currentText}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollFrame>
      )}
    </section>
  );
}
