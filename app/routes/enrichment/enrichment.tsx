import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { CsrfField } from '../../components/account-form.tsx';
import { ScrollFrame } from '../../components/scroll-frame.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import reviewScript from '../../islands/enrichment-review.js?raw';
import { inlineScript } from '../../islands/inline-script.ts';
import { pageMeta } from '../../meta.ts';
import { enrichmentAction, loadEnrichmentPage } from '../../presenters/enrichment.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/enrichment';

// /companies/enrichment/{id}/ (ADR 0020 "Enrichment"): a draft's columns (guessed, changeable),
// its cost and the balance after, and the button that runs it; a run's progress (the page
// refreshes itself, no script needed); a finished run's outcomes, the uncertain matches to review
// (accept, pick another candidate, or reject) and the download of the enriched file.

const REVIEW_SCRIPT = inlineScript(reviewScript);

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
              <li key={c.outcome} data-outcome={c.outcome}>
                {c.label}: <strong>{c.count}</strong>
              </li>
            ))}
          </ul>
          {page.done.remembered ? <p>{page.done.remembered}</p> : null}
          <section aria-labelledby="enrichment-review">
            <h2 id="enrichment-review">{t('enrichment.review')}</h2>
            {page.done.accepted ? <Notice>{page.done.accepted}</Notice> : null}
            {/* What "accept all" did without a page load (the island fills it in). */}
            <p className="form-notice" data-accept-all-notice hidden tabIndex={-1} />
            {/* What the island decided, read out (app/islands/enrichment-review.js). */}
            <p id="enrichment-review-status" className="visually-hidden" role="status" />
            {page.done.review.length > 0 ? (
              <form
                method="post"
                action={page.action}
                className="account-form enrichment-accept-all"
                data-review-all={page.reviewAction}
              >
                <CsrfField />
                <input type="hidden" name="intent" value="accept-all" />
                <fieldset>
                  <legend>{t('enrichment.acceptAll')}</legend>
                  <p className="field-hint" id="accept-all-hint">
                    {t('enrichment.acceptAllHint')}
                  </p>
                  <div className="field">
                    <label htmlFor="accept-all-threshold">{t('enrichment.acceptAllLabel')}</label>
                    <input
                      id="accept-all-threshold"
                      name="threshold"
                      type="number"
                      inputMode="numeric"
                      min={page.done.acceptAll.min}
                      max={page.done.acceptAll.max}
                      step={1}
                      required
                      defaultValue={page.done.acceptAll.value}
                      aria-describedby="accept-all-hint"
                    />
                  </div>
                </fieldset>
                <button type="submit">{t('enrichment.acceptAllButton')}</button>
              </form>
            ) : null}
            {page.done.review.length === 0 ? (
              <>
                {page.done.decidedRow ? (
                  <p className="enrichment-decided" id={page.done.decidedRow.anchor} tabIndex={-1}>
                    {page.done.decidedRow.text}
                  </p>
                ) : null}
                <p className="empty">{t('enrichment.reviewNone')}</p>
              </>
            ) : (
              <>
                <p className="field-hint">{t('enrichment.reviewHint')}</p>
                {page.done.decidedRow &&
                page.done.review.every((row) => row.rowNumber > (page.done.decidedRow?.rowNumber ?? 0)) ? (
                  <p className="enrichment-decided" id={page.done.decidedRow.anchor} tabIndex={-1}>
                    {page.done.decidedRow.text}
                  </p>
                ) : null}
                {page.done.review.map((row, r) => (
                  <Fragment key={row.rowNumber}>
                    <ReviewRow row={row} action={page.action} fetchAction={page.reviewAction} />
                    {/* Back from a decision without script: the row decided, where it was. */}
                    {page.done.decidedRow &&
                    row.rowNumber < page.done.decidedRow.rowNumber &&
                    (page.done.review[r + 1]?.rowNumber ?? Number.POSITIVE_INFINITY) >
                      page.done.decidedRow.rowNumber ? (
                      <p className="enrichment-decided" id={page.done.decidedRow.anchor} tabIndex={-1}>
                        {page.done.decidedRow.text}
                      </p>
                    ) : null}
                  </Fragment>
                ))}
                {page.done.reviewMore ? <p className="field-hint">{page.done.reviewMore}</p> : null}
                <script dangerouslySetInnerHTML={{ __html: REVIEW_SCRIPT }} />
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

type ReviewRowData = Extract<Route.ComponentProps['loaderData'], { done: unknown }>['done']['review'][number];

/**
 * A row to review: its candidates as a table (number, town, status, score and why, ADR 0032), a
 * choice per candidate and "none of these". On a phone each candidate is a card (`row-cards`).
 */
function ReviewRow({ row, action, fetchAction }: { row: ReviewRowData; action: string; fetchAction: string }) {
  const { t } = useTranslation();
  const none = `${row.anchor}-none`;
  return (
    <form
      method="post"
      action={action}
      className="enrichment-review-row"
      id={row.anchor}
      aria-label={row.label}
      data-review-row={fetchAction}
    >
      <CsrfField />
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="row" value={row.rowNumber} />
      <div className="row-cards">
        <ScrollFrame className="table-wrap">
          <table className="results-table style-2 review-table">
            <caption>{row.caption}</caption>
            <thead>
              <tr>
                <th scope="col" className="select-column">
                  {t('enrichment.candidateColumns.choice')}
                </th>
                <th scope="col">{t('columns.legal_name')}</th>
                <th scope="col">{t('columns.company_number')}</th>
                <th scope="col">{t('columns.town')}</th>
                <th scope="col">{t('columns.status')}</th>
                <th scope="col">{t('enrichment.candidateColumns.score')}</th>
                <th scope="col">{t('enrichment.candidateColumns.why')}</th>
              </tr>
            </thead>
            <tbody>
              {row.candidates.map((c, i) => (
                <tr key={c.id}>
                  <td className="select-column" data-column="company">
                    <input type="radio" name="company" value={c.id} defaultChecked={i === 0} aria-label={c.choose} />
                  </td>
                  <td data-column="legal_name">
                    <a href={c.href} target="_blank" rel="noopener">
                      {c.name}
                    </a>
                  </td>
                  <td data-label={t('columns.company_number')}>{c.number}</td>
                  <td data-label={t('columns.town')}>{c.town}</td>
                  <td
                    data-label={t('columns.status')}
                    className={c.status?.tone ? `status-${c.status.tone}` : undefined}
                  >
                    {c.status?.text ?? ''}
                  </td>
                  <td data-label={t('enrichment.candidateColumns.score')}>{c.score}</td>
                  <td data-label={t('enrichment.candidateColumns.why')} className="lines">
                    <ul className="match-features">
                      {c.features.map((f, k) => (
                        <li key={k}>{f}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
              <tr>
                <td className="select-column" data-column="company">
                  <input type="radio" name="company" value="none" id={none} />
                </td>
                <td data-column="legal_name" colSpan={6}>
                  <label htmlFor={none}>{t('enrichment.reject')}</label>
                </td>
              </tr>
            </tbody>
          </table>
        </ScrollFrame>
      </div>
      <p role="alert" className="form-alert" data-review-error="" hidden />
      <button type="submit">{t('enrichment.save')}</button>
    </form>
  );
}
