import { useTranslation } from 'react-i18next';
import { data, redirect } from 'react-router';
import { localePath } from '../../../core/i18n/i18n.ts';
import { CsrfField } from '../../components/account-form.tsx';
import { SupportField, TicketCloseForm, TicketStatus, TicketThread } from '../../components/support.tsx';
import { Notice, UserDataNav } from '../../components/user-data.tsx';
import { pageMeta } from '../../meta.ts';
import { accountFormFailure, accountPageHeaders, formText } from '../../presenters/account-forms.server.ts';
import { presenter } from '../../presenters/present.server.ts';
import { pageHelpDesk, threadOf } from '../../presenters/support.server.ts';
import { langOf, userPageSeo } from '../../presenters/user-data.server.ts';
import { requireUser } from '../../require-user.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/ticket';

// /dashboard/support/topics/{number}/: one of the user's tickets, its messages, a reply, close and
// reopen. Another user's ticket number is simply not found (ADR 0007).

export const headers = accountPageHeaders;

function numberOf(params: { number?: string }): number {
  const text = params.number ?? '';
  if (!/^\d{1,9}$/.test(text)) throw data({ message: 'not found' }, { status: 404 });
  return Number(text);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(services.reference, lang);
  const number = numberOf(params);
  const ticket = await pageHelpDesk(services).ofUser(auth.user.id, { number });
  if (!ticket) throw data({ message: 'not found' }, { status: 404 });
  const path = `/dashboard/support/topics/${number}/`;
  const seo = userPageSeo(context, lang, path, 'support.title', 'support.description');
  return {
    seo: { ...seo, title: p.t('support.ticketTitle', { number, name: ticket.name }) },
    done: new URL(request.url).searchParams.get('done'),
    id: ticket.id,
    number,
    name: ticket.name,
    status: ticket.status,
    messages: threadOf(p, ticket),
    backHref: p.path('/dashboard/support/'),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = requireUser(context);
  const services = context.get(servicesContext);
  const desk = pageHelpDesk(services);
  const lang = langOf(params);
  const number = numberOf(params);
  const ticket = await desk.ofUser(auth.user.id, { number });
  if (!ticket) throw data({ message: 'not found' }, { status: 404 });
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const message = formText(form, 'message');
  const back = (done: string) => redirect(`${localePath(lang, `/dashboard/support/topics/${number}/`)}?done=${done}`);
  try {
    if (intent === 'reply') {
      await desk.reply(auth.user.id, ticket.id, message);
      return back('replied');
    }
    if (intent === 'close' || intent === 'reopen') {
      await desk.setStatus(auth.user.id, ticket.id, intent === 'close' ? 'closed' : 'open');
      return back(intent === 'close' ? 'closed' : 'reopened');
    }
  } catch (error) {
    return accountFormFailure(error, { message });
  }
  throw new Response('Unknown action', { status: 400 });
}

export default function Ticket({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <div className="user-data-page">
      <UserDataNav />
      <p>
        <a href={d.backHref}>← {t('support.back')}</a>
      </p>
      <h1>{t('support.ticketTitle', { number: d.number, name: d.name })}</h1>
      {d.done ? <Notice>{t(`support.done.${d.done}`, { defaultValue: '' })}</Notice> : null}
      <p>
        {t('support.columns.status')}: <TicketStatus status={d.status} />
      </p>
      <TicketThread messages={d.messages} requester={t('support.you')} />
      <form method="post" className="support-form">
        <CsrfField />
        <input type="hidden" name="intent" value="reply" />
        <SupportField name="message" label={t('support.reply')} result={actionData} multiline />
        <button type="submit">{t('support.sendReply')}</button>
      </form>
      <TicketCloseForm status={d.status} />
    </div>
  );
}
