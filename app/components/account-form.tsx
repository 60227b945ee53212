import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteLoaderData } from 'react-router';
import type { AccountFormResult } from '../presenters/account-forms.server.ts';
import type { RootData } from '../root.tsx';

/** The session's CSRF token, in every form that posts (nothing for a guest). */
export function CsrfField() {
  const root = useRouteLoaderData('root') as RootData | undefined;
  return root?.csrfToken ? <input type="hidden" name="_csrf" value={root.csrfToken} /> : null;
}

type FieldProps = {
  /** The form field's name, also the key of its problems (account.problems.<name>.<code>). */
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autoComplete: string;
  result: AccountFormResult | undefined;
  defaultValue?: string;
  hint?: string;
};

/** A labelled input with its hint and its translated problem, linked for screen readers. */
export function AccountField({ name, label, type, autoComplete, result, defaultValue, hint }: FieldProps) {
  const { t } = useTranslation();
  const id = `account-${name}`;
  const problem = result?.fields?.[name];
  const described = [hint ? `${id}-hint` : null, problem ? `${id}-problem` : null].filter(Boolean).join(' ');
  const value = type === 'password' ? undefined : (result?.values?.[name] ?? defaultValue);
  return (
    <div className={`field${problem ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={value}
        required
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
      />
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {problem ? (
        <span id={`${id}-problem`} className="field-problem">
          {t(`account.problems.${name}.${problem}`)}
        </span>
      ) : null}
    </div>
  );
}

/** The form's own message (wrong credentials, too many attempts, …) or the summary of field problems. */
export function AccountAlert({ result }: { result: AccountFormResult | undefined }) {
  const { t } = useTranslation();
  if (!result) return null;
  const text = result.alert
    ? t(`account.errors.${result.alert.key}`, result.alert.count === undefined ? {} : { count: result.alert.count })
    : result.fields
      ? t('account.errors.summary')
      : null;
  return text ? (
    <p role="alert" className="form-alert">
      {text}
    </p>
  ) : null;
}

export function AccountPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="account-page">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/**
 * A one-button form that acts on one row (delete, remove, sign out a session, mark read): the
 * session's CSRF token, the intent and the row's fields, and a button named for screen readers.
 */
export function RowAction({
  action,
  intent,
  fields,
  label,
  children,
  className,
}: {
  action: string;
  intent: string;
  /** Hidden fields naming the row, e.g. { id: 12 }. */
  fields: Record<string, string | number>;
  /** The button's accessible name, saying which row it acts on. */
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <form method="post" action={action} className={className}>
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="link-button" aria-label={label}>
        {children}
      </button>
    </form>
  );
}
