import { useTranslation } from 'react-i18next';
import { data } from 'react-router';
import {
  API_KEY_SCOPES,
  apiKeyUsage,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../../core/api-keys/api-keys.ts';
import { planOfUser } from '../../../core/api-keys/api-limits.ts';
import { AppError } from '../../../core/errors/app-error.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { API_PLAN_LIMITS } from '../../../core/limits.ts';
import { CsrfField, RowAction } from '../../components/account-form.tsx';
import { SettingsPage } from '../../components/settings.tsx';
import { FieldProblem } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { doneOf, settingsDone, settingsHeaders } from '../../presenters/settings.server.ts';
import { formIds, langOf, pageError, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/api';

// Settings → API keys (ADR 0020): make a key (shown once, in the answer to the form that made
// it), see each key's scopes, last use and requests per day, revoke one; and the published limits.

export const headers = settingsHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db, reference } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const when = (iso: string | null) => (iso ? p.dateTime(iso) : null);
  const [keys, usage] = await Promise.all([listApiKeys(db, auth.user.id), apiKeyUsage(db, auth.user.id)]);
  const names = new Map(keys.map((k) => [k.id, k.name]));
  return {
    seo: userPageSeo(context, lang, '/dashboard/settings/api/', 'settings.api.title', 'settings.api.description'),
    plan: await planOfUser(db, auth.user.id),
    limits: API_PLAN_LIMITS,
    keys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      created: when(k.created_at),
      createdAt: k.created_at,
      lastUsed: when(k.last_used_at),
      lastUsedAt: k.last_used_at,
      revoked: k.revoked_at !== null,
    })),
    usage: usage.map((u) => ({
      id: u.api_key_id,
      key: names.get(u.api_key_id) ?? '',
      day: p.date(u.day),
      requests: u.requests,
    })),
    ...doneOf(request),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const values = { name: formText(form, 'name'), scopes: form.getAll('scope').map(String) };
  try {
    if (intent === 'create') {
      const { key, row } = await createApiKey(db, auth.user.id, values);
      // Not a redirect: the key is in this answer only, never again.
      return data({ created: { key, name: row.name }, fields: null, values: null });
    }
    if (intent === 'revoke') {
      const [id] = formIds(form, 'id');
      if (id === undefined) throw new AppError('not_found', 'No such key.');
      await revokeApiKey(db, auth.user.id, id);
      return settingsDone(lang, 'api', 'revoked');
    }
  } catch (error) {
    const fields = error instanceof AppError ? (error.details as { fields?: Record<string, string> })?.fields : null;
    if (fields) return data({ created: null, fields, values }, { status: 400 });
    return pageError(error);
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function ApiSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const action = localePath(loaderData.seo.lang, '/dashboard/settings/api/');
  const notice = loaderData.done === 'revoked' ? t('settings.api.revoked') : null;
  const fields = actionData?.fields ?? undefined;
  const created = actionData?.created;
  const chosen = actionData?.values?.scopes ?? ['read'];
  return (
    <SettingsPage page="api" notice={notice}>
      <p>{t('settings.api.intro')}</p>
      <p>
        {t('settings.api.limits', {
          plan: t(`settings.api.plans.${loaderData.plan}`),
          anonymous: loaderData.limits.anonymous,
          free: loaderData.limits.free,
          paid: loaderData.limits.paid,
        })}{' '}
        <a href="/api/docs">{t('settings.api.docs')}</a>
      </p>
      {created ? (
        <div className="notice" role="status">
          <p>{t('settings.api.createdOnce', { name: created.name })}</p>
          <p>
            <code className="api-key" data-testid="new-api-key">
              {created.key}
            </code>
          </p>
        </div>
      ) : null}
      <h2>{t('settings.api.keys')}</h2>
      {loaderData.keys.length === 0 ? (
        <p className="empty">{t('settings.api.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('settings.api.name')}</th>
                <th scope="col">{t('settings.api.key')}</th>
                <th scope="col">{t('settings.api.scopes')}</th>
                <th scope="col">{t('settings.api.created')}</th>
                <th scope="col">{t('settings.api.lastUsed')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('history.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.keys.map((k) => (
                <tr key={k.id}>
                  <td data-label={t('settings.api.name')}>{k.name}</td>
                  <td data-label={t('settings.api.key')}>
                    <code>{`${k.prefix}…`}</code>
                  </td>
                  <td data-label={t('settings.api.scopes')}>
                    {k.scopes.map((s) => t(`settings.api.scopeNames.${s}`)).join(', ')}
                  </td>
                  <td data-label={t('settings.api.created')}>
                    <time dateTime={k.createdAt}>{k.created}</time>
                  </td>
                  <td data-label={t('settings.api.lastUsed')}>
                    {k.lastUsedAt ? <time dateTime={k.lastUsedAt}>{k.lastUsed}</time> : t('settings.api.never')}
                  </td>
                  <td className="row-actions">
                    {k.revoked ? (
                      t('settings.api.isRevoked')
                    ) : (
                      <RowAction
                        action={action}
                        intent="revoke"
                        fields={{ id: k.id }}
                        label={t('settings.api.revokeLabel', { name: k.name })}
                      >
                        {t('settings.api.revoke')}
                      </RowAction>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>{t('settings.api.create')}</h2>
      <form method="post" action={action} className="account-form" noValidate>
        <CsrfField />
        <input type="hidden" name="intent" value="create" />
        <div className={`field${fields?.name ? ' field-invalid' : ''}`}>
          <label htmlFor="api-key-name">{t('settings.api.name')}</label>
          <input
            id="api-key-name"
            name="name"
            type="text"
            required
            defaultValue={actionData?.values?.name}
            aria-invalid={fields?.name ? true : undefined}
            aria-describedby={fields?.name ? 'api-key-name-problem' : undefined}
          />
          <FieldProblem id="api-key-name-problem" fields={fields} name="name" problems="settings.api.problems" />
        </div>
        <fieldset className={`field${fields?.scopes ? ' field-invalid' : ''}`}>
          <legend>{t('settings.api.scopes')}</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope}>
              <input type="checkbox" name="scope" value={scope} defaultChecked={chosen.includes(scope)} />{' '}
              {t(`settings.api.scopeNames.${scope}`)} — {t(`settings.api.scopeHints.${scope}`)}
            </label>
          ))}
          <FieldProblem id="api-key-scopes-problem" fields={fields} name="scopes" problems="settings.api.problems" />
        </fieldset>
        <FieldProblem id="api-key-keys-problem" fields={fields} name="keys" problems="settings.api.problems" />
        <button type="submit">{t('settings.api.createSubmit')}</button>
      </form>
      <h2>{t('settings.api.usage')}</h2>
      {loaderData.usage.length === 0 ? (
        <p className="empty">{t('settings.api.noUsage')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('settings.api.day')}</th>
                <th scope="col">{t('settings.api.name')}</th>
                <th scope="col">{t('settings.api.requests')}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.usage.map((u) => (
                <tr key={`${u.day}-${u.id}`}>
                  <td data-label={t('settings.api.day')}>{u.day}</td>
                  <td data-label={t('settings.api.name')}>{u.key}</td>
                  <td data-label={t('settings.api.requests')}>{u.requests}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsPage>
  );
}
