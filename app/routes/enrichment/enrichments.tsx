import { useTranslation } from 'react-i18next';
import { CsrfField } from '../../components/account-form.tsx';
import { GatedLink, GateScript, SignInGate, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { enrichmentsAction, loadEnrichmentsPage } from '../../presenters/enrichment.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/enrichments';

// /companies/enrichment/: what enrichment does, the upload form (CSV or XLSX) and the user's
// enrichments; guests get the sign-in gate (ADR 0020 "Enrichment").

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadEnrichmentsPage(context, langOf(params));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return enrichmentsAction(context, request, langOf(params));
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function Enrichments({ loaderData: page, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const error = actionData && 'error' in actionData ? actionData.error : null;
  return (
    <div className="user-data-page enrichment-page">
      <UserDataNav />
      <h1>{t('enrichment.title')}</h1>
      <p>{t('enrichment.intro')}</p>
      {error ? (
        <p role="alert" className="form-alert">
          {error}
        </p>
      ) : null}
      {page.signedIn ? (
        <>
          <form
            method="post"
            action={page.action}
            encType="multipart/form-data"
            className="account-form enrichment-upload"
            data-pending="enrich"
          >
            <CsrfField />
            <div className="field">
              <label htmlFor="enrichment-file">{t('enrichment.file', { size: page.maxMb })}</label>
              <input
                id="enrichment-file"
                name="file"
                type="file"
                required
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              />
            </div>
            <button type="submit">{t('enrichment.upload')}</button>
          </form>
          <GateScript />
          <h2>{t('enrichment.yours')}</h2>
          {page.enrichments.length === 0 ? (
            <p className="empty">{t('enrichment.none')}</p>
          ) : (
            <div className="table-wrap">
              <table className="results-table style-2">
                <thead>
                  <tr>
                    <th scope="col">{t('enrichment.columns.file')}</th>
                    <th scope="col">{t('enrichment.columns.rows')}</th>
                    <th scope="col">{t('enrichment.columns.status')}</th>
                    <th scope="col">{t('enrichment.columns.created')}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.enrichments.map((e) => (
                    <tr key={e.id}>
                      <td data-label={t('enrichment.columns.file')}>
                        <a href={e.href}>{e.fileName}</a>
                      </td>
                      <td data-label={t('enrichment.columns.rows')} className="number">
                        {e.rows}
                      </td>
                      <td data-label={t('enrichment.columns.status')}>{e.status}</td>
                      <td data-label={t('enrichment.columns.created')}>{e.created}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : (
        <div className="user-actions">
          <GatedLink action="enrich" text={t('enrichment.gate')}>
            {t('enrichment.upload')}
          </GatedLink>
          <SignInGate />
          <GateScript />
        </div>
      )}
    </div>
  );
}
