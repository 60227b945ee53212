import { useTranslation } from 'react-i18next';
import type { AccountFormResult } from '../presenters/account-forms.server.ts';
import { CsrfField } from './account-form.tsx';

// Pieces of the support pages (dashboard, contact form, support desk): a ticket's fields with their
// translated problems, its status, and its message thread.

export type ThreadMessage = { id: number; author: 'requester' | 'support'; body: string; at: string; on: string };

type FieldProps = {
  name: 'name' | 'message' | 'email' | 'requester';
  label: string;
  result: AccountFormResult | undefined;
  multiline?: boolean;
  type?: 'text' | 'email';
  autoComplete?: string;
  idPrefix?: string;
};

/** A labelled support field with its problem (support.problems.<name>.<code>), linked for screen readers. */
export function SupportField({
  name,
  label,
  result,
  multiline,
  type = 'text',
  autoComplete,
  idPrefix = 'support',
}: FieldProps) {
  const { t } = useTranslation();
  const id = `${idPrefix}-${name}`;
  const problem = result?.fields?.[name];
  const common = {
    id,
    name,
    required: true,
    defaultValue: result?.values?.[name],
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? `${id}-problem` : undefined,
  };
  return (
    <div className={`field${problem ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {multiline ? <textarea rows={8} {...common} /> : <input type={type} autoComplete={autoComplete} {...common} />}
      {problem ? (
        <span id={`${id}-problem`} className="field-problem">
          {t(`support.problems.${name}.${problem}`)}
        </span>
      ) : null}
    </div>
  );
}

export function TicketStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  return <span className={`ticket-status ticket-${status}`}>{t(`support.statuses.${status}`)}</span>;
}

/** The messages of a ticket, oldest first; text is shown as written (escaped, line breaks kept). */
export function TicketThread({ messages, requester }: { messages: ThreadMessage[]; requester: string }) {
  const { t } = useTranslation();
  return (
    <ol className="ticket-thread">
      {messages.map((m) => (
        <li key={m.id} className={`ticket-message from-${m.author}`}>
          <p className="ticket-meta">
            <strong>{m.author === 'support' ? t('support.team') : requester}</strong> ·{' '}
            <time dateTime={m.at}>{m.on}</time>
          </p>
          <div className="ticket-body">{m.body}</div>
        </li>
      ))}
    </ol>
  );
}

/** Close an open ticket, or reopen a closed one: one button, the same on the user's page and the desk. */
export function TicketCloseForm({ status }: { status: string }) {
  const { t } = useTranslation();
  const closed = status === 'closed';
  return (
    <form method="post" className="inline-form">
      <CsrfField />
      <input type="hidden" name="intent" value={closed ? 'reopen' : 'close'} />
      <button type="submit" className="secondary">
        {closed ? t('support.reopen') : t('support.close')}
      </button>
    </form>
  );
}
