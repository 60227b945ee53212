import { useTranslation } from 'react-i18next';
import { isLang } from '../../../core/i18n/i18n.ts';
import { findPeople } from '../../../core/people/find-people.ts';
import { personLines } from '../../../core/people/person-lines.ts';
import { personPath } from '../../../core/people/person-path.ts';
import { Flag } from '../../components/flag.tsx';
import { ScrollFrame } from '../../components/scroll-frame.tsx';
import { useSuggestAttribute } from '../../components/suggest-script.tsx';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/search';

// People search by name (ADR 0022): officers, shareholders and other members, each
// linking to their page, with what tells them apart (core/people/person-lines.ts).

const QUERY_MAX = 200;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const p = presenter(services.reference, lang);
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, QUERY_MAX);
  const hits = q ? await findPeople(services.db, q) : [];
  return {
    q,
    rows: personLines(hits, services.reference, lang).map((line, i) => {
      const h = hits[i];
      return {
        id: h.id,
        name: h.name,
        tiebreak: line.tiebreak,
        href: p.path(personPath(h.name, h.id)),
        kind: p.t(`people.kinds.${h.name_type}`),
        company: line.company ? { text: line.company.name, href: p.companyHref(line.company.uri) } : null,
        role: line.role,
        country: h.country_id ? p.jurisdiction(h.country_id) : { text: '' },
        born: line.birth,
        positions: p.number(h.positions),
      };
    }),
    countText: q ? p.t('people.found', { n: p.number(hits.length) }) : '',
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: '/members/search/',
      title: `${p.t('people.searchTitle')} — Registra`,
      description: p.t('people.searchDescription'),
      noindex: q !== '',
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function PeopleSearch({ loaderData }: Route.ComponentProps) {
  const { q, rows, countText } = loaderData;
  const { t } = useTranslation();
  const suggestAttribute = useSuggestAttribute();
  return (
    <div className="search-page">
      <h1>{t('people.searchTitle')}</h1>
      <search>
        <form method="get" className="search-bar">
          <label htmlFor="people-q" className="visually-hidden">
            {t('people.query')}
          </label>
          <input
            id="people-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={QUERY_MAX}
            placeholder={t('people.placeholder')}
            data-suggest={suggestAttribute}
          />
          <button type="submit">{t('search.submit')}</button>
        </form>
      </search>
      {q ? (
        <>
          <p className="count" aria-live="polite">
            {countText}
          </p>
          {rows.length === 0 ? (
            <div className="empty">
              <p>
                <strong>{t('search.noResults')}</strong>
              </p>
            </div>
          ) : (
            <ScrollFrame className="table-wrap">
              <table className="results-table style-2">
                <thead>
                  <tr>
                    <th scope="col">{t('people.name')}</th>
                    <th scope="col">{t('people.kind')}</th>
                    <th scope="col">{t('people.mainCompany')}</th>
                    <th scope="col">{t('people.role')}</th>
                    <th scope="col">{t('people.country')}</th>
                    <th scope="col">{t('people.bornColumn')}</th>
                    <th scope="col">{t('people.positionsCount')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.id}>
                      <td data-column="name">
                        <a href={r.href}>{r.name}</a>
                        {r.tiebreak ? <span className="muted">{` (${r.tiebreak})`}</span> : null}
                      </td>
                      <td data-column="kind">{r.kind}</td>
                      <td data-column="company">{r.company ? <a href={r.company.href}>{r.company.text}</a> : null}</td>
                      <td data-column="role">{r.role}</td>
                      <td data-column="country">
                        <Flag code={r.country.flag} />
                        {r.country.text}
                      </td>
                      <td data-column="born">{r.born}</td>
                      <td data-column="positions" className="number">
                        {r.positions}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollFrame>
          )}
        </>
      ) : (
        <p className="muted">{t('people.searchHint')}</p>
      )}
    </div>
  );
}
