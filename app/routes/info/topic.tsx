import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { unprefixedPath } from '../../../core/i18n/i18n.ts';
import { type KbKind, kbPath, kbRefId } from '../../../core/kb/kb-paths.ts';
import { getKbTopic } from '../../../core/kb/kb-topics.ts';
import { TopicList } from '../../components/help.tsx';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/topic';

// A help section (/info/sections/{id}-{slug}/), topic (/info/topics/{id}-{slug}/) or info page
// (/info/pages/{uri}-{id}/): its sanitised body (core/kb/render-markdown.ts), its child topics and
// the way back. An address with an outdated slug is redirected to the current one (ADR 0021).

const KIND_OF: Record<string, KbKind> = { sections: 'section', topics: 'topic', pages: 'page' };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, reference, siteUrl } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const kind = KIND_OF[unprefixedPath(url.pathname).split('/')[2] ?? ''];
  const id = kind ? kbRefId(kind, params.ref ?? '') : null;
  const topic = id === null ? null : await getKbTopic(db, id, lang);
  if (!kind || !topic || topic.kind !== kind) throw data({ message: 'not found' }, { status: 404 });
  const path = kbPath(topic);
  if (unprefixedPath(url.pathname) !== path) throw redirect(`${p.path(path)}${url.search}`, 301);
  return {
    seo: { siteUrl, lang, path, title: topic.name, description: topic.short_description },
    kind,
    name: topic.name,
    description: topic.short_description,
    html: topic.body_html,
    fallback: topic.body_lang !== lang,
    parent: topic.parent ? { href: p.path(kbPath(topic.parent)), name: topic.parent.name } : null,
    children: topic.children.map((c) => ({
      href: p.path(kbPath(c)),
      name: c.name,
      description: c.short_description,
    })),
    helpHref: p.path('/info/'),
    contactHref: p.path('/info/contact-us/'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Topic({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <article className="kb-page">
      <nav aria-label={t('help.breadcrumb')} className="breadcrumb">
        <a href={d.helpHref}>{t('help.title')}</a>
        {d.parent ? (
          <>
            {' › '}
            <a href={d.parent.href}>{d.parent.name}</a>
          </>
        ) : null}
      </nav>
      <h1>{d.name}</h1>
      {d.kind !== 'page' && d.description ? <p className="lead">{d.description}</p> : null}
      {d.fallback ? (
        <p className="notice" lang="en">
          {t('help.fallback')}
        </p>
      ) : null}
      {/* Sanitised when loaded (core/kb/render-markdown.ts): prose tags only, no script or handler. */}
      <div className="kb-body" lang={d.fallback ? 'en' : undefined} dangerouslySetInnerHTML={{ __html: d.html }} />
      {d.children.length > 0 ? (
        <section aria-labelledby="kb-children">
          <h2 id="kb-children">{d.kind === 'section' ? t('help.inThisSection') : t('help.related')}</h2>
          <TopicList topics={d.children} />
        </section>
      ) : null}
      <p className="kb-contact">
        {t('help.stillStuck')} <a href={d.contactHref}>{t('help.contactUs')}</a>
      </p>
    </article>
  );
}
