import { useTranslation } from 'react-i18next';
import { data } from 'react-router';
import { isLang } from '../../core/i18n/i18n.ts';
import { ChoiceBoxes } from '../components/filter-panel.tsx';
import { HiddenFields } from '../components/hidden-fields.tsx';
import { pageMeta } from '../meta.ts';
import { loadChoicesPage, sectionOfUrl } from '../presenters/search-page.server.ts';
import { serverRendered } from '../server-rendered.ts';
import { servicesContext } from '../services.ts';
import type { Route } from './+types/search-choices';

// Every value of one long filter list of a search's panel (ADR 0043): where the panel's "All N
// choices" link leads. A plain GET form to the search (no framework JavaScript) that keeps the rest
// of the search; with script the panel fetches this page and takes its list in place
// (app/islands/more-choices.js), so the list keeps the id the panel's short list has.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = isLang(params.lang) ? params.lang : 'en';
  const url = new URL(request.url);
  const section = sectionOfUrl(url);
  // A bad parameter is an AppError: the page's 400 (app/page-errors.server.ts).
  const page = await loadChoicesPage(services, lang, url, section, params.field);
  if (!page) throw data({ message: 'Not found' }, { status: 404 });
  return serverRendered(
    {
      seo: {
        siteUrl: services.siteUrl,
        lang,
        path: page.path,
        title: page.title,
        description: page.title,
        noindex: true,
      },
    },
    { page },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function SearchChoices({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const { t } = useTranslation();
  return (
    <div className="search-choices">
      <h1>{page.title}</h1>
      <p>
        <a href={page.searchHref}>← {t('search.backToSearch')}</a>
      </p>
      <form method="get" action={page.action} className="filter-panel">
        <HiddenFields params={page.carry} />
        <fieldset className="field">
          <legend>{page.field.label}</legend>
          <ChoiceBoxes field={page.field} id={`choices-${page.field.name}`} />
        </fieldset>
        <button type="submit">{t('search.apply')}</button>
      </form>
    </div>
  );
}
