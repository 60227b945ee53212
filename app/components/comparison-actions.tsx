import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { CsrfField } from './account-form.tsx';

// "Add to comparison" on search results and profiles. Comparing is not gated:
// guests keep their comparison in a cookie, signed-in users in their account. Both are plain
// POST forms to /companies/comparison/, which answers with the comparison page.

function useComparisonPath(): string {
  const { lang } = useParams();
  return localePath(isLang(lang) ? lang : 'en', '/companies/comparison/');
}

/**
 * Adds the ticked rows of search results. The rows' checkboxes belong to the form `form` (their
 * `form=` attribute). A signed-in user has that form ("add to list"): this button submits it to
 * the comparison instead (`formaction`), with its CSRF token. A guest has no such form, so the
 * button comes with its own form of that id, which the checkboxes then belong to.
 */
export function CompareSelected({ form, signedIn }: { form: string; signedIn: boolean }) {
  const { t } = useTranslation();
  const action = useComparisonPath();
  return (
    <div className="user-actions comparison-actions">
      {signedIn ? (
        <button
          type="submit"
          form={form}
          formAction={action}
          formMethod="post"
          formNoValidate
          name="intent"
          value="add"
          className="secondary"
        >
          {t('comparison.addSelected')}
        </button>
      ) : (
        <form id={form} method="post" action={action}>
          <input type="hidden" name="intent" value="add" />
          <button type="submit" className="secondary">
            {t('comparison.addSelected')}
          </button>
        </form>
      )}
      <a href={action}>{t('comparison.open')}</a>
    </div>
  );
}

/** Adds the company of a profile. */
export function AddToComparison({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const action = useComparisonPath();
  return (
    <div className="user-actions comparison-actions">
      <form method="post" action={action}>
        <CsrfField />
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="ids" value={companyId} />
        <button type="submit" className="secondary">
          {t('comparison.addThis')}
        </button>
      </form>
      <a href={action}>{t('comparison.open')}</a>
    </div>
  );
}
