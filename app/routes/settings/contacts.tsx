import { useTranslation } from 'react-i18next';
import { data } from 'react-router';
import {
  addUserContact,
  deleteUserContacts,
  listUserContacts,
  USER_CONTACT_TYPES,
} from '../../../core/contacts/user-contacts.ts';
import { AppError } from '../../../core/errors/app-error.ts';
import { localePath } from '../../../core/i18n/i18n.ts';
import { CsrfField, RowAction } from '../../components/account-form.tsx';
import { SettingsPage } from '../../components/settings.tsx';
import { FieldProblem } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { formText } from '../../presenters/account-forms.server.ts';
import { doneOf, settingsDone, settingsHeaders } from '../../presenters/settings.server.ts';
import { formIds, langOf, pageError, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/contacts';

// Settings → contacts (spec §2: columns Contact, Type): the user's own contact details, added one
// at a time (checked for their type) and deleted.

export const headers = settingsHeaders;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const { db } = context.get(servicesContext);
  const lang = langOf(params);
  const contacts = await listUserContacts(db, auth.user.id, { count: 100 });
  return {
    seo: userPageSeo(
      context,
      lang,
      '/dashboard/settings/contacts/',
      'settings.contacts.title',
      'settings.contacts.description',
    ),
    contacts: contacts.data.map((c) => ({ id: c.id, type: c.type, contact: c.contact })),
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
  const values = { type: formText(form, 'type'), contact: formText(form, 'contact') };
  try {
    if (intent === 'add') {
      await addUserContact(db, auth.user.id, values);
      return settingsDone(lang, 'contacts', 'added');
    }
    if (intent === 'delete') {
      await deleteUserContacts(db, auth.user.id, formIds(form, 'id'));
      return settingsDone(lang, 'contacts', 'deleted');
    }
  } catch (error) {
    // A bad or repeated contact: the form again, with what was typed and why.
    const fields = error instanceof AppError ? (error.details as { fields?: Record<string, string> })?.fields : null;
    if (fields && (error as AppError).code !== 'not_found') {
      return data({ fields, values }, { status: (error as AppError).code === 'conflict' ? 409 : 400 });
    }
    return pageError(error);
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function ContactSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const action = localePath(loaderData.seo.lang, '/dashboard/settings/contacts/');
  const notice =
    loaderData.done === 'added'
      ? t('settings.contacts.added')
      : loaderData.done === 'deleted'
        ? t('settings.contacts.deleted')
        : null;
  const fields = actionData?.fields;
  const problem = (name: string) => (fields?.[name] ? `contact-${name}-problem` : undefined);
  return (
    <SettingsPage page="contacts" notice={notice}>
      <p>{t('settings.contacts.intro')}</p>
      {loaderData.contacts.length === 0 ? (
        <p className="empty">{t('settings.contacts.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="results-table style-2">
            <thead>
              <tr>
                <th scope="col">{t('settings.contacts.contact')}</th>
                <th scope="col">{t('settings.contacts.type')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('history.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.contacts.map((c) => (
                <tr key={c.id}>
                  <td data-label={t('settings.contacts.contact')}>{c.contact}</td>
                  <td data-label={t('settings.contacts.type')}>{t(`settings.contacts.types.${c.type}`)}</td>
                  <td className="row-actions">
                    <RowAction
                      action={action}
                      intent="delete"
                      fields={{ id: c.id }}
                      label={t('settings.contacts.deleteLabel', { contact: c.contact })}
                    >
                      {t('settings.contacts.delete')}
                    </RowAction>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form method="post" action={action} className="account-form" noValidate>
        <CsrfField />
        <input type="hidden" name="intent" value="add" />
        <div className={`field${fields?.type ? ' field-invalid' : ''}`}>
          <label htmlFor="contact-type">{t('settings.contacts.type')}</label>
          <select
            id="contact-type"
            name="type"
            defaultValue={actionData?.values?.type ?? 'email'}
            aria-invalid={fields?.type ? true : undefined}
            aria-describedby={problem('type')}
          >
            {USER_CONTACT_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`settings.contacts.types.${type}`)}
              </option>
            ))}
          </select>
          <FieldProblem id="contact-type-problem" fields={fields} name="type" problems="settings.contacts.problems" />
        </div>
        <div className={`field${fields?.contact ? ' field-invalid' : ''}`}>
          <label htmlFor="contact-contact">{t('settings.contacts.contact')}</label>
          <input
            id="contact-contact"
            name="contact"
            type="text"
            required
            defaultValue={actionData?.values?.contact}
            aria-invalid={fields?.contact ? true : undefined}
            aria-describedby={problem('contact')}
          />
          <FieldProblem
            id="contact-contact-problem"
            fields={fields}
            name="contact"
            problems="settings.contacts.problems"
          />
        </div>
        <button type="submit">{t('settings.contacts.add')}</button>
      </form>
    </SettingsPage>
  );
}
