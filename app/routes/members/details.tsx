import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { isLang, localePath } from '../../../core/i18n/i18n.ts';
import { ConnectionsGraphView } from '../../components/connections-graph.tsx';
import { Flag } from '../../components/flag.tsx';
import { ControlledCompanies } from '../../components/ownership.tsx';
import { ScrollFrame } from '../../components/scroll-frame.tsx';
import { pageMeta } from '../../meta.ts';
import { loadControlled } from '../../presenters/ownership.server.ts';
import { loadPersonPage, type PersonPosition } from '../../presenters/person-page.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { serverRendered } from '../../server-rendered.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/details';

// A person's page (spec §2: /members/details/{name}/{id}/; ADR 0022).

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : null;
  if (id === null || !Number.isSafeInteger(id)) throw data({ message: 'Not found' }, { status: 404 });
  // Their contact details show to a viewer who bought one of their companies (ADR 0029).
  const person = await loadPersonPage(services, lang, id, context.get(authContext)?.user.id);
  if (!person) throw data({ message: 'Not found' }, { status: 404 });
  // Another name before the id: the person's own address, for good.
  if (person.path !== `/members/details/${params.name}/${params.id}/`)
    throw redirect(localePath(lang, person.path), 301);
  // What they control, from every ownership source (ADR 0038); companies taken down are left out there.
  const controlled = await loadControlled(services.db, presenter(services.reference, lang), person.id);
  return serverRendered(
    {
      seo: {
        siteUrl: services.siteUrl,
        lang,
        path: person.path,
        title: `${person.name} — Registra`,
        description: person.description,
      },
    },
    { person, controlled },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

function Positions({ id, title, rows }: { id: string; title: string; rows: PersonPosition[] }) {
  const { t } = useTranslation();
  return (
    <section className="profile-section" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="count">({rows.length})</span>
      </h2>
      {rows.length === 0 ? (
        <p className="muted">{t('profile.none')}</p>
      ) : (
        <ScrollFrame className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('people.company')}</th>
                <th scope="col">{t('people.position')}</th>
                <th scope="col">{t('people.since')}</th>
                <th scope="col">{t('people.until')}</th>
                <th scope="col">{t('columns.jurisdiction')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <td data-column="company">
                    <a href={r.company.href}>{r.company.text}</a>
                  </td>
                  <td data-column="position">
                    {r.position}
                    {r.note ? <span className="note"> · {r.note}</span> : null}
                  </td>
                  <td data-column="since">{r.since}</td>
                  <td data-column="until">{r.until}</td>
                  <td data-column="jurisdiction">
                    <Flag code={r.jurisdiction.flag} />
                    {r.jurisdiction.text}
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

export default function PersonDetails({ loaderData }: Route.ComponentProps) {
  const { person, controlled } = loaderData;
  const { t } = useTranslation();
  return (
    <article className="profile person">
      <header className="profile-header">
        <h1>{person.name}</h1>
        <p className="profile-badges">
          <span className="badge">{person.kind}</span>
        </p>
      </header>
      <section aria-labelledby="person-overview">
        <h2 id="person-overview">{t('profile.overview')}</h2>
        <dl className="overview">
          {person.facts.map((f) => (
            <div key={f.label}>
              <dt>{f.label}</dt>
              <dd>
                <Flag code={f.flag} />
                {f.href ? <a href={f.href}>{f.value}</a> : f.value}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <ControlledCompanies rows={controlled} />
      <Positions id="positions-current" title={t('people.current')} rows={person.current} />
      <Positions id="positions-past" title={t('people.past')} rows={person.past} />
      {person.contacts.length > 0 ? (
        <section className="profile-section" aria-labelledby="person-contacts">
          <h2 id="person-contacts">{t('profile.contacts')}</h2>
          <table className="profile-table">
            <tbody>
              {person.contacts.map((c) => (
                <tr key={`${c.label}-${c.value}`}>
                  <th scope="row">{c.label}</th>
                  <td>{c.href ? <a href={c.href}>{c.value}</a> : c.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {person.graph ? <ConnectionsGraphView graph={person.graph} id="connections-graph" /> : null}
    </article>
  );
}
