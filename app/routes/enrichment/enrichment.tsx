import { useTranslation } from 'react-i18next';
import { CsrfField } from '../../components/account-form.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { enrichmentAction, loadEnrichmentPage } from '../../presenters/enrichment.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/enrichment';

// /companies/enrichment/{id}/ (ADR 0020 "Enrichment"): a draft's columns (guessed, changeable),
// its cost and the balance after, and the button that runs it; a run's progress (the page
// refreshes itself, no script needed); a finished run's outcomes, the uncertain matches to review
// (accept, pick another candidate, or reject) and the download of the enriched file.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return loadEnrichmentPage(context, request, langOf(params), params.id);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return enrichmentAction(context, request, langOf(params), params.id);
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function EnrichmentPage({ loaderData: page, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const error = actionData && 'error' in actionData ? actionData.error : null;
  return (
    <div className="user-data-page enrichment-page">
      <UserDataNav />
      <p className="breadcrumbs">
        <a href={page.back}>{t('enrichment.back')}</a>
      </p>
      <h1>{page.fileName}</h1>
      <p>
        {page.rows} · <span className="enrichment-status">{page.statusText}</span>
      </p>
      {error ? (
        <p role="alert" className="form-alert">
          {error}
        </p>
      ) : null}
      {page.decided ? <Notice>{t('enrichment.decided')}</Notice> : null}

      {'draft' in page && page.draft ? (
        <form method="post" action={page.action} className="account-form enrichment-run">
          <CsrfField />
          <input type="hidden" name="intent" value="run" />
          <fieldset>
            <legend>{t('enrichment.mapping')}</legend>
            <p className="field-hint">{page.draft.usable ? t('enrichment.mappingHint') : t('enrichment.noGuess')}</p>
            {page.draft.fields.map((f) => (
              <div className="field" key={f.field}>
                <label htmlFor={`map-${f.field}`}>{f.label}</label>
                <select id={`map-${f.field}`} name={`map.${f.field}`} defaultValue={f.column ?? ''}>
                  <option value="">{t('enrichment.notUsed')}</option>
                  {page.draft.columns.map((column, i) => (
                    <option key={i} value={i}>
                      {column}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </fieldset>
          <h2>{t('enrichment.sample')}</h2>
          <div className="table-wrap">
            <table className="results-table style-2">
              <thead>
                <tr>
                  {page.draft.columns.map((c, i) => (
                    <th scope="col" key={i}>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {page.draft.sample.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, i) => (
                      <td key={i}>{cell}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="enrichment-cost">{page.draft.cost}</p>
          <p>{page.draft.balance}</p>
          {page.draft.enough ? (
            <button type="submit">{t('enrichment.run')}</button>
          ) : (
            <p>
              {t('enrichment.tooFew')} <a href={page.draft.pricing}>{t('enrichment.buy')}</a>
            </p>
          )}
        </form>
      ) : null}

      {'progress' in page && page.progress ? (
        <section className="enrichment-progress" aria-live="polite">
          {/* React hoists the refresh into the head: the page reloads until the run is done, no script needed. */}
          <meta httpEquiv="refresh" content="2" />
          <progress max={page.progress.total} value={page.progress.done} />
          <p role="status">{page.progress.text}</p>
          <p className="field-hint">{t('enrichment.refreshHint')}</p>
        </section>
      ) : null}

      {'failed' in page && page.failed ? (
        <p role="alert" className="form-alert">
          {page.failed}
        </p>
      ) : null}

      {'done' in page && page.done ? (
        <>
          <ul className="enrichment-summary">
            {page.done.counts.map((c) => (
              <li key={c.outcome}>
                {c.label}: <strong>{c.count}</strong>
              </li>
            ))}
          </ul>
          {page.done.remembered ? <p>{page.done.remembered}</p> : null}
          <section aria-labelledby="enrichment-review">
            <h2 id="enrichment-review">{t('enrichment.review')}</h2>
            {page.done.review.length === 0 ? (
              <p className="empty">{t('enrichment.reviewNone')}</p>
            ) : (
              <>
                <p className="field-hint">{t('enrichment.reviewHint')}</p>
                {page.done.review.map((row) => (
                  <form
                    method="post"
                    action={page.action}
                    className="enrichment-review-row"
                    key={row.rowNumber}
                    aria-label={row.label}
                  >
                    <CsrfField />
                    <input type="hidden" name="intent" value="decide" />
                    <input type="hidden" name="row" value={row.rowNumber} />
                    <fieldset>
                      <legend>
                        {row.label}: {row.input}
                      </legend>
                      {row.candidates.map((c, i) => (
                        <label key={c.id}>
                          <input type="radio" name="company" value={c.id} defaultChecked={i === 0} /> {c.name}
                          {c.country ? ` (${c.country})` : ''} — {c.score} ·{' '}
                          <a href={c.href} target="_blank" rel="noopener">
                            {t('enrichment.openCompany')}
                          </a>
                        </label>
                      ))}
                    </fieldset>
                    <button type="submit" name="decision" value="accept">
                      {t('enrichment.accept')}
                    </button>{' '}
                    <button type="submit" name="decision" value="reject" className="secondary">
                      {t('enrichment.reject')}
                    </button>
                  </form>
                ))}
                {page.done.reviewMore ? <p className="field-hint">{page.done.reviewMore}</p> : null}
              </>
            )}
          </section>
          <section aria-labelledby="enrichment-download">
            <h2 id="enrichment-download">{t('enrichment.download')}</h2>
            <form method="get" action={page.done.download} className="account-form">
              <fieldset>
                <legend>{t('export.format')}</legend>
                {page.done.formats.map((f, i) => (
                  <label key={f.value}>
                    <input type="radio" name="format" value={f.value} defaultChecked={i === 0} /> {f.label}
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend>{t('enrichment.sections')}</legend>
                {page.done.sections.map((s) => (
                  <label key={s.value}>
                    <input type="checkbox" name="sections" value={s.value} defaultChecked={s.checked} /> {s.label}
                  </label>
                ))}
              </fieldset>
              <button type="submit">{t('enrichment.downloadButton')}</button>
            </form>
          </section>
        </>
      ) : null}
    </div>
  );
}
