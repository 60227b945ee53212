import { useTranslation } from 'react-i18next';
import type { ChangeLineView, ReportChangesView } from '../presenters/change-lines.server.ts';

// A recorded change as a page shows it (app/presenters/change-lines.server.ts): its field, what it
// was and what it became (a list's items as a list), and who said so and when.

/** A value's items: one as text, several as a list, none as "(none)". */
export function ChangeValue({ items }: { items: string[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return <span className="muted">{t('monitoring.none')}</span>;
  if (items.length === 1) return <>{items[0]}</>;
  return (
    <ul className="change-items">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

function ChangeLine({ line }: { line: ChangeLineView }) {
  const { t } = useTranslation();
  const field = line.historyHref ? (
    <a href={line.historyHref} title={t('changeWords.historyLink')}>
      {line.field}
    </a>
  ) : (
    line.field
  );
  return (
    <li className="change-line" data-field={line.fieldName}>
      <span className="change-field">{field}</span>:{' '}
      {line.firstRecorded ? (
        <ChangeValue items={line.new} />
      ) : (
        <>
          <span className="change-old">
            <ChangeValue items={line.old} />
          </span>{' '}
          →{' '}
          <span className="change-new">
            <ChangeValue items={line.new} />
          </span>
        </>
      )}
      <br />
      <small className="muted change-source">{line.source}</small>
    </li>
  );
}

/** A report's changes: the changed fields, then the first-recorded ones folded in one group. */
export function ReportChanges({ changes }: { changes: ReportChangesView }) {
  return (
    <>
      {changes.lines.length > 0 ? (
        <ul className="cell-lines change-lines">
          {changes.lines.map((line, i) => (
            <ChangeLine key={i} line={line} />
          ))}
        </ul>
      ) : null}
      {changes.firstRecorded ? (
        <details className="first-recorded">
          <summary>{changes.firstRecorded.summary}</summary>
          <ul className="cell-lines change-lines">
            {changes.firstRecorded.lines.map((line, i) => (
              <ChangeLine key={i} line={line} />
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
