import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { SupportField, TicketCloseForm, TicketStatus, TicketThread } from '../../components/support.tsx';
import { Notice } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, accountPageHeaders, formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { pageHelpDesk, requireSupportStaff, threadOf } from '../../presenters/support.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/desk-ticket';

// /support-desk/topics/{id}/: one ticket for support staff: the thread, an answer (the requester
// is emailed, as their settings say), close and reopen (ADR 0021).

export const headers = accountPageHeaders;

function idOf(params: { id?: string }): number {
  const text = params.id ?? '';
  if (!/^\d{1,15}$/.test(text)) throw data({ message: 'not found' }, { status: 404 });
  return Number(text);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireSupportStaff(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(services.reference, lang);
  const id = idOf(params);
  const ticket = await pageHelpDesk(services).get(id);
  if (!ticket) throw data({ message: 'not found' }, { status: 404 });
  return {
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: `/support-desk/topics/${id}/`,
      title: ticket.name,
      description: p.t('support.desk.description'),
      noindex: true,
      social: false,
    },
    done: new URL(request.url).searchParams.get('done'),
    id,
    name: ticket.name,
    status: ticket.status,
    requester: `${ticket.requester_name} <${ticket.email}>`,
    language: ticket.language,
    messages: threadOf(p, ticket),
    backHref: p.path('/support-desk/'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = await requireSupportStaff(context);
  const desk = pageHelpDesk(context.get(servicesContext));
  const lang = langOf(params);
  const id = idOf(params);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const message = formText(form, 'message');
  const back = (done: string) => redirect(`${localePath(lang, `/support-desk/topics/${id}/`)}?done=${done}`);
  try {
    if (intent === 'answer') {
      await desk.answer(id, auth.user.id, message);
      return back('answered');
    }
    if (intent === 'close' || intent === 'reopen') {
      await desk.setDeskStatus(id, intent === 'close' ? 'closed' : 'open');
      return back(intent === 'close' ? 'closed' : 'reopened');
    }
  } catch (error) {
    return accountFormFailure(error, { message });
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function DeskTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <div className="user-data-page">
      <p>
        <a href={d.backHref}>← {t('support.desk.title')}</a>
      </p>
      <h1>
        #{d.id}: {d.name}
      </h1>
      {d.done ? <Notice>{t(`support.done.${d.done}`, { defaultValue: '' })}</Notice> : null}
      <p>
        {t('support.desk.requester')}: {d.requester} ({d.language}) · <TicketStatus status={d.status} />
      </p>
      <TicketThread messages={d.messages} requester={d.requester} />
      <form method="post" className="support-form">
        <CsrfField />
        <input type="hidden" name="intent" value="answer" />
        <SupportField name="message" label={t('support.desk.answer')} result={actionData} multiline />
        <button type="submit">{t('support.desk.sendAnswer')}</button>
      </form>
      <TicketCloseForm status={d.status} />
    </div>
  );
}
