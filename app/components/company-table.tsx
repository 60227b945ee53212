import { useTranslation } from 'react-i18next';
import { inlineScript } from '../islands/inline-script.ts';
import selectAllScript from '../islands/select-all.js?raw';
import type { ColumnSort } from '../presenters/search-page.server.ts';
import { Flag } from './flag.tsx';
import { ScrollFrame } from './scroll-frame.tsx';
import { LIST_ADD_FORM } from './user-data.tsx';

const SELECT_ALL_SCRIPT = inlineScript(selectAllScript);

type Cell = { text: string; href?: string; flag?: string; tone?: 'active' | 'inactive'; town?: string };

/**
 * Rows can be ticked (a first column `ids` of checkboxes, value = row id) for a form elsewhere on
 * the page (`form`, e.g. "add to list"); each box is labelled `label: <the row's first cell>`.
 */
export type Selectable = { form: string; label: string; allLabel?: string };

/** A search's rows can be ticked and added to a list in the companies section only. */
export function searchSelectable(section: string, t: (key: string) => string): Selectable | undefined {
  return section === 'companies'
    ? { form: LIST_ADD_FORM, label: t('lists.select'), allLabel: t('searchUx.selectAll') }
    : undefined;
}

/**
 * A result table drawn from a section's declared columns and display-ready cells. Where it has
 * less than 40rem (a phone), the stylesheet lays each row out as a card: the first column as its
 * title, then a line per cell, labelled by its column (`data-label`), and the row's town; the
 * markup stays the one table.
 */
export function CompanyTable(props: CompanyTableProps) {
  return (
    <div className="row-cards">
      <CompanyTableFrame {...props} />
    </div>
  );
}

type CompanyTableProps = {
  columns: { key: string; label: string; sort?: ColumnSort }[];
  rows: { id: number; cells: Record<string, Cell> }[];
  tableStyle?: string;
  selectable?: Selectable;
};

/**
 * What CompanyTable's `<div class="row-cards">` holds: the search page renders it apart and keeps
 * it (app/presenters/profile-parts.server.tsx), so it reads no route hook.
 */
export function CompanyTableFrame({ columns, rows, tableStyle = 'style-2', selectable }: CompanyTableProps) {
  const { t } = useTranslation();
  return (
    <ScrollFrame className="table-wrap">
      <table className={`results-table ${tableStyle}`}>
        <thead>
          <tr>
            {/* The checkboxes' column has no header of its own: each box is labelled with its row. */}
            {selectable ? (
              <td className="select-column">
                {/* ---- search UX (ADR 0022): tick every row at once (app/islands/select-all.js) ---- */}
                {selectable.allLabel ? (
                  <>
                    {/* A card layout has no header row: there the box says what it does beside it. */}
                    <label className="select-all">
                      <input
                        type="checkbox"
                        data-select-all={selectable.form}
                        aria-label={selectable.allLabel}
                        hidden
                      />
                      <span className="select-all-text" aria-hidden="true">
                        {selectable.allLabel}
                      </span>
                    </label>
                    <script dangerouslySetInnerHTML={{ __html: SELECT_ALL_SCRIPT }} />
                  </>
                ) : null}
              </td>
            ) : null}
            {columns.map((c) => (
              <th key={c.key} scope="col" aria-sort={c.sort?.current ?? undefined}>
                {/* ---- search UX (ADR 0022): a sortable column's header is a link to its sort ---- */}
                {c.sort ? (
                  <a href={c.sort.href} className="sort-link">
                    {c.label}
                    <span className="visually-hidden">, {c.sort.action}</span>
                    <span className="sort-arrow" aria-hidden="true">
                      {c.sort.current === 'ascending' ? '▲' : c.sort.current === 'descending' ? '▼' : '↕'}
                    </span>
                  </a>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {selectable ? (
                <td data-column="ids" className="select-column">
                  <input
                    type="checkbox"
                    name="ids"
                    value={row.id}
                    form={selectable.form}
                    aria-label={`${selectable.label}: ${row.cells[columns[0]?.key ?? '']?.text ?? row.id}`}
                  />
                </td>
              ) : null}
              {columns.map((c) => {
                const cell = row.cells[c.key];
                if (!cell) return <td key={c.key} />;
                const content = (
                  <>
                    <Flag code={cell.flag} />
                    {cell.text}
                  </>
                );
                return (
                  <td
                    key={c.key}
                    data-column={c.key}
                    data-label={c.label}
                    className={cell.tone ? `status-${cell.tone}` : undefined}
                  >
                    {cell.href && cell.text ? <a href={cell.href}>{content}</a> : content}
                    {cell.town ? (
                      <span className="row-town" data-label={t('columns.town')}>
                        {cell.town}
                      </span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollFrame>
  );
}
