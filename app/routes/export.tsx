import { useTranslation } from 'react-i18next';
import { CsrfField } from '../components/account-form.tsx';
import { ExportChoicesFields } from '../components/export-choices.tsx';
import { GatedLink, GateScript, SignInGate } from '../components/user-data.tsx';
import { pageMeta } from '../meta.ts';
import { exportPageAction, loadExportPage } from '../presenters/export-page.server.ts';
import { langOf } from '../presenters/user-data.server.ts';
import type { Route } from './+types/export';

// /{section}/export/ (and /{section}/export/f/…/): the export of a search — or of a company list
// (?list=N) — as csv, xlsx, json or xml (spec §5, §7 "Export behaviour"). Plain HTML: the form
// posts, the action saves the choices, starts the export as a background job and sends the
// browser to its page, which shows its progress and then the file (docs/decisions/0031-export-jobs.md).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return loadExportPage(context, request, langOf(params), params['*']);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return exportPageAction(context, request, langOf(params));
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function ExportPage({ loaderData: page }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { choices } = page;
  return (
    <div className="export-page user-data-page">
      <p className="breadcrumbs">
        {page.list ? (
          <a href={page.list.href}>{t('export.backToList')}</a>
        ) : (
          <a href={page.searchHref}>{t('export.back')}</a>
        )}
      </p>
      <h1>{page.title}</h1>
      {page.list ? null : <p>{t('export.search', { summary: page.summary })}</p>}
      <p className="export-cost">
        {page.cost.text}
        {page.cost.tooFew ? (
          <>
            {' '}
            {page.cost.tooFew}{' '}
            <a className="button" href={page.cost.pricingHref}>
              {t('billing.cost.buyCredits')}
            </a>
          </>
        ) : null}
      </p>
      <form
        method="post"
        action={page.action}
        id="export-form"
        className="account-form export-form"
        data-pending="export"
      >
        <CsrfField />
        <input type="hidden" name="query" value={page.query} />
        {page.ids.length > 0 ? <input type="hidden" name="ids" value={page.ids.join(',')} /> : null}
        {page.list ? <input type="hidden" name="list" value={page.list.number} /> : null}
        <ExportChoicesFields idPrefix="export" options={page.options} choices={choices} />
        {page.signedIn ? (
          <>
            <button type="submit">{t('export.download')}</button>
            <p className="field-hint">{t('export.settingsKept')}</p>
          </>
        ) : null}
      </form>
      {page.signedIn ? (
        // Back from signing in with the export pending: the gate's island sends the form.
        <GateScript />
      ) : (
        <div className="user-actions">
          <GatedLink action="export" text={t('export.gate')}>
            {t('export.download')}
          </GatedLink>
          <SignInGate />
          <GateScript />
        </div>
      )}
    </div>
  );
}
