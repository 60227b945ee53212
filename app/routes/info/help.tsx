import { useTranslation } from 'react-i18next';
import { kbPath } from '../../../core/kb/kb-paths.ts';
import { listKbTopics } from '../../../core/kb/kb-topics.ts';
import { HelpSearch, TopicList } from '../../components/help.tsx';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/help';

// /info/: the help's sections with their topics, the legal pages, and a search within the help
// (?q=…, ADR 0021).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, reference, siteUrl } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 200);
  const link = (topic: Parameters<typeof kbPath>[0] & { name: string; short_description: string }) => ({
    href: p.path(kbPath(topic)),
    name: topic.name,
    description: topic.short_description,
  });
  const [sections, topics, pages, found] = await Promise.all([
    listKbTopics(db, lang, { kind: 'section' }),
    listKbTopics(db, lang, { kind: 'topic' }),
    listKbTopics(db, lang, { kind: 'page' }),
    q ? listKbTopics(db, lang, { q }) : Promise.resolve(null),
  ]);
  return {
    seo: {
      siteUrl,
      lang,
      path: '/info/',
      title: p.t('help.title'),
      description: p.t('help.description'),
      noindex: q !== '',
    },
    q,
    results: found?.map(link) ?? null,
    sections: sections.map((s) => ({
      ...link(s),
      id: s.id,
      topics: topics.filter((t) => t.parent_id === s.id).map(link),
    })),
    pages: pages.map(link),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Help({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { q, results, sections, pages, seo } = loaderData;
  const action = seo.lang === 'en' ? '/info/' : `/${seo.lang}/info/`;
  return (
    <div className="kb-page">
      <h1>{t('help.title')}</h1>
      <p className="lead">{t('help.description')}</p>
      <HelpSearch action={action} q={q} />
      {results ? (
        <section aria-labelledby="kb-results">
          <h2 id="kb-results">
            {results.length > 0 ? t('help.results', { count: results.length, q }) : t('help.noResults', { q })}
          </h2>
          <TopicList topics={results} />
        </section>
      ) : null}
      {sections.map((section) => (
        <section key={section.id} aria-labelledby={`kb-section-${section.id}`}>
          <h2 id={`kb-section-${section.id}`}>
            <a href={section.href}>{section.name}</a>
          </h2>
          <TopicList topics={section.topics} />
        </section>
      ))}
      <section aria-labelledby="kb-legal">
        <h2 id="kb-legal">{t('help.legal')}</h2>
        <TopicList topics={pages} />
      </section>
    </div>
  );
}
