import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { submitContactForm } from '../../../core/support/contact-form.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { SupportField } from '../../components/support.tsx';
import { Notice } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { pageHelpDesk } from '../../presenters/support.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { authContext, clientContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/contact-us';

// /info/contact-us/: a message to support from anyone (ADR 0021). It opens a ticket: a signed-in
// user's own (followed in the dashboard), a guest's answered by email. A honeypot field and a rate
// limit keep bots out; after sending, the page says what happens next.

const PATH = '/info/contact-us/';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { reference, siteUrl } = context.get(servicesContext);
  const auth = context.get(authContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  const url = new URL(request.url);
  const done = url.searchParams.get('done');
  const ticket = url.searchParams.get('ticket');
  return {
    seo: {
      siteUrl,
      lang,
      path: PATH,
      title: p.t('support.contact.title'),
      description: p.t('support.contact.description'),
      // The confirmation is nobody's landing page.
      noindex: done !== null,
    },
    signedIn: auth !== null,
    sent: done === 'sent' ? { email: (url.searchParams.get('email') ?? '').slice(0, 254) } : null,
    ticketHref: ticket && /^\d{1,9}$/.test(ticket) ? p.path(`/dashboard/support/topics/${ticket}/`) : null,
    helpHref: p.path('/info/'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const auth = context.get(authContext);
  const lang = langOf(params);
  const form = await request.formData();
  const values = {
    requester: formText(form, 'requester'),
    email: formText(form, 'email'),
    name: formText(form, 'name'),
    message: formText(form, 'message'),
  };
  try {
    const ticket = await submitContactForm(services.db, pageHelpDesk(services), {
      name: values.requester,
      email: values.email,
      subject: values.name,
      message: values.message,
      honeypot: formText(form, 'website'),
      lang,
      ip: context.get(clientContext).ip,
      user: auth ? { id: auth.user.id, email: auth.user.email, name: auth.user.name } : null,
    });
    const query = new URLSearchParams({ done: 'sent' });
    if (ticket?.number) query.set('ticket', String(ticket.number));
    else query.set('email', ticket?.email ?? values.email.trim());
    return redirect(`${localePath(lang, PATH)}?${query}`);
  } catch (error) {
    return accountFormFailure(error, values);
  }
}

export default function ContactUs({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <div className="kb-page">
      <h1>{t('support.contact.title')}</h1>
      {d.sent ? (
        <>
          <Notice>
            {d.ticketHref ? t('support.contact.sentUser') : t('support.contact.sent', { email: d.sent.email })}
          </Notice>
          {d.ticketHref ? (
            <p>
              <a href={d.ticketHref}>{t('support.contact.followUp')}</a>
            </p>
          ) : null}
        </>
      ) : (
        <>
          <p>{t('support.contact.intro')}</p>
          <p>
            {t('support.helpFirst')} <a href={d.helpHref}>{t('help.title')}</a>
          </p>
          {d.signedIn ? <p>{t('support.contact.signedIn')}</p> : null}
          <form method="post" className="support-form">
            <CsrfField />
            {actionData?.alert ? (
              <p role="alert" className="form-alert">
                {t(`account.errors.${actionData.alert.key}`, { count: actionData.alert.count ?? 1 })}
              </p>
            ) : null}
            {d.signedIn ? null : (
              <>
                <SupportField
                  name="requester"
                  label={t('support.contact.name')}
                  result={actionData}
                  autoComplete="name"
                />
                <SupportField
                  name="email"
                  label={t('support.contact.email')}
                  result={actionData}
                  type="email"
                  autoComplete="email"
                />
              </>
            )}
            <SupportField name="name" label={t('support.subject')} result={actionData} />
            <SupportField name="message" label={t('support.message')} result={actionData} multiline />
            {/* The honeypot: hidden from people (and from screen readers), filled in by bots. */}
            <div className="honeypot" aria-hidden="true">
              <label htmlFor="contact-website">{t('support.contact.honeypot')}</label>
              <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
            </div>
            <button type="submit">{t('support.send')}</button>
          </form>
        </>
      )}
    </div>
  );
}
