import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import {
  requireExistingTracking,
  TRACKED_SECTIONS,
  updateExistingTracking,
} from '../../../core/monitoring/existing-trackings.ts';
import { RECORD_SECTIONS } from '../../../core/sections/records.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { MonitoringNav } from '../../components/monitoring.tsx';
import { FieldProblem, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formInt, langOf, pageError, userDataFormFailure, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/sections';

// /companies/monitoring/updates/sections/?tracking=<id>: what a tracking of a company reports
// (docs/decisions/0027-monitored-records.md) — the company's own details and each record section,
// ticked; every one ticked is everything (a section added later is reported too).

function trackingIdOf(url: URL): number {
  const text = url.searchParams.get('tracking') ?? '';
  if (!/^\d{1,15}$/.test(text)) throw data({ message: 'tracking: a tracking id' }, { status: 400 });
  return Number(text);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const lang = langOf(params);
  const { db } = context.get(servicesContext);
  const tracking = await requireExistingTracking(db, auth.user.id, trackingIdOf(new URL(request.url))).catch(pageError);
  return {
    seo: userPageSeo(
      context,
      lang,
      '/companies/monitoring/updates/sections/',
      'monitoring.sections.title',
      'monitoring.sections.description',
    ),
    id: tracking.id,
    name: tracking.name,
    chosen: tracking.sections ?? [...TRACKED_SECTIONS],
    records: RECORD_SECTIONS.map((s) => ({ value: s.table, label: s.title[lang] })).sort((a, b) =>
      a.label.localeCompare(b.label, lang),
    ),
    backHref: localePath(lang, '/companies/monitoring/updates/'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const id = formInt(form, 'id');
  if (id === null) throw data({ message: 'id: a tracking id' }, { status: 400 });
  const sections = form.getAll('sections').map(String);
  try {
    await updateExistingTracking(db, auth.user.id, id, { sections });
  } catch (error) {
    return userDataFormFailure(error, { sections: sections.join(',') });
  }
  return redirect(`${localePath(lang, '/companies/monitoring/updates/')}?done=sections`);
}

export default function TrackingSections({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { id, name, records, backHref } = loaderData;
  const fields = actionData?.fields;
  const chosen = new Set(actionData?.values?.sections?.split(',') ?? loaderData.chosen);
  const box = (value: string, label: string) => (
    <div className="choice" key={value}>
      <input type="checkbox" id={`section-${value}`} name="sections" value={value} defaultChecked={chosen.has(value)} />
      <label htmlFor={`section-${value}`}>{label}</label>
    </div>
  );
  return (
    <div className="user-data-page monitoring-page">
      <UserDataNav />
      <MonitoringNav />
      <h1>{t('monitoring.sections.title')}</h1>
      <p>{t('monitoring.sections.intro', { name })}</p>
      {fields ? (
        <p role="alert" className="form-alert">
          {t(`monitoring.problems.${Object.keys(fields)[0]}.${Object.values(fields)[0]}`, { defaultValue: '' })}
        </p>
      ) : null}
      <form method="post" className="account-form tracking-form">
        <CsrfField />
        <input type="hidden" name="id" value={id} />
        <fieldset aria-describedby={fields?.sections ? 'sections-problem' : undefined}>
          <legend>{t('monitoring.sections.legend')}</legend>
          {box('company', t('monitoring.sections.company'))}
          <fieldset>
            <legend>{t('monitoring.sections.records')}</legend>
            {records.map((r) => box(r.value, r.label))}
          </fieldset>
          <FieldProblem id="sections-problem" fields={fields} name="sections" problems="monitoring.problems" />
        </fieldset>
        <button type="submit">{t('monitoring.sections.submit')}</button>{' '}
        <a href={backHref}>{t('monitoring.sections.cancel')}</a>
      </form>
    </div>
  );
}
