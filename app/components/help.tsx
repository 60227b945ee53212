import { useTranslation } from 'react-i18next';

// Pieces of the help pages (app/routes/info): a list of topics, the help's search form.

export type TopicLink = { href: string; name: string; description: string };

export function TopicList({ topics }: { topics: TopicLink[] }) {
  return (
    <ul className="kb-topics">
      {topics.map((topic) => (
        <li key={topic.href}>
          <a href={topic.href}>{topic.name}</a>
          {topic.description ? <p>{topic.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}

export function HelpSearch({ action, q }: { action: string; q: string }) {
  const { t } = useTranslation();
  return (
    <search className="kb-search">
      <form method="get" action={action}>
        <label htmlFor="kb-q">{t('help.search')}</label>
        <input id="kb-q" name="q" type="search" defaultValue={q} maxLength={200} />
        <button type="submit">{t('help.searchButton')}</button>
      </form>
    </search>
  );
}
