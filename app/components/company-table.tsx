type Cell = { text: string; href?: string; flag?: string; tone?: 'active' | 'inactive' };

/** A result table drawn from a section's declared columns and display-ready cells. */
export function CompanyTable({
  columns,
  rows,
  tableStyle = 'style-2',
}: {
  columns: { key: string; label: string }[];
  rows: { id: number; cells: Record<string, Cell> }[];
  tableStyle?: string;
}) {
  return (
    <div className="table-wrap">
      <table className={`results-table ${tableStyle}`}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((c) => {
                const cell = row.cells[c.key];
                if (!cell) return <td key={c.key} />;
                const content = (
                  <>
                    {cell.flag ? (
                      <span className="flag" aria-hidden="true">
                        {cell.flag}{' '}
                      </span>
                    ) : null}
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
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
