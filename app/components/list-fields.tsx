import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { LIST_DESCRIPTION_MAX, LIST_NAME_MAX } from '../../core/limits.ts';
import { CsrfField } from './account-form.tsx';
import { FieldProblem } from './user-data.tsx';

/** Name and description of a list: creating one, or renaming and describing it. */
export function ListFields({
  idPrefix,
  intent,
  listId,
  name,
  description,
  fields,
  submit,
  pending,
  action,
}: {
  idPrefix: string;
  intent: 'create' | 'update';
  listId?: number;
  name: string;
  description: string;
  fields?: Record<string, string>;
  submit: string;
  /** The form finishes a guest's "create a list" after sign-in. */
  pending?: boolean;
  /** Where the form posts (default: the lists page). */
  action?: string;
}) {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <form
      method="post"
      action={action ?? localePath(isLang(lang) ? lang : 'en', '/companies/lists/')}
      className="account-form list-fields"
      data-pending={pending ? 'create-list' : undefined}
    >
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      {listId !== undefined ? <input type="hidden" name="id" value={listId} /> : null}
      <div className={`field${fields?.name ? ' field-invalid' : ''}`}>
        <label htmlFor={`${idPrefix}-name`}>{t('lists.fields.name')}</label>
        <input
          id={`${idPrefix}-name`}
          name="name"
          type="text"
          required
          maxLength={LIST_NAME_MAX}
          defaultValue={name || (pending ? t('lists.defaultName') : '')}
          aria-invalid={fields?.name ? true : undefined}
          aria-describedby={fields?.name ? `${idPrefix}-name-problem` : undefined}
        />
        <FieldProblem id={`${idPrefix}-name-problem`} fields={fields} name="name" />
      </div>
      <div className={`field${fields?.description ? ' field-invalid' : ''}`}>
        <label htmlFor={`${idPrefix}-description`}>{t('lists.fields.description')}</label>
        <textarea
          id={`${idPrefix}-description`}
          name="description"
          rows={2}
          maxLength={LIST_DESCRIPTION_MAX}
          defaultValue={description}
          aria-invalid={fields?.description ? true : undefined}
          aria-describedby={fields?.description ? `${idPrefix}-description-problem` : undefined}
        />
        <FieldProblem id={`${idPrefix}-description-problem`} fields={fields} name="description" />
      </div>
      {fields?.lists ? (
        <p role="alert" className="form-alert">
          {t(`lists.problems.lists.${fields.lists}`)}
        </p>
      ) : null}
      <button type="submit">{submit}</button>
    </form>
  );
}
