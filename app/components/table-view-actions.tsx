import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { CsrfField } from './account-form.tsx';
import { GatedLink } from './user-data.tsx';

// Saving and loading table settings (spec §5: gated): a signed-in user saves a section's table view
// (style and columns) as their default, and goes back to it after changing the view on a page.
// A guest gets the sign-in popup; after signing in the pending action finishes here.

export const TABLE_VIEWS_PATH = '/dashboard/settings/table-views/';

export function TableViewActions({
  section,
  style,
  columns,
  here,
  hasSaved,
  signedIn,
}: {
  section: string;
  style: string;
  columns: string[];
  /** This page (path and query), to come back to. */
  here: string;
  hasSaved: boolean;
  signedIn: boolean;
}) {
  const { t } = useTranslation();
  const { lang } = useParams();
  if (!signedIn) {
    return (
      <p className="table-view-actions">
        <GatedLink action="save-table-view" text={t('gate.saveTableView')}>
          {t('table.saveDefault')}
        </GatedLink>{' '}
        <GatedLink action="load-table-view" text={t('gate.loadTableView')}>
          {t('table.loadSaved')}
        </GatedLink>
      </p>
    );
  }
  return (
    <div className="table-view-actions">
      <form
        method="post"
        action={localePath(isLang(lang) ? lang : 'en', TABLE_VIEWS_PATH)}
        data-pending="save-table-view"
      >
        <CsrfField />
        <input type="hidden" name="section" value={section} />
        <input type="hidden" name="style" value={style} />
        {columns.map((c) => (
          <input key={c} type="hidden" name="columns" value={c} />
        ))}
        <input type="hidden" name="returnTo" value={here} />
        <button type="submit" className="secondary">
          {t('table.saveDefault')}
        </button>
      </form>
      {hasSaved ? (
        <form method="get" data-pending="load-table-view">
          <input type="hidden" name="view" value="saved" />
          <button type="submit" className="link-button">
            {t('table.loadSaved')}
          </button>
        </form>
      ) : null}
    </div>
  );
}
