import { useTranslation } from 'react-i18next';
import { bulkDataDirOf } from '../../../core/bulk/bulk-data-dir.ts';
import { listBulkSnapshots } from '../../../core/bulk/bulk-files.ts';
import { formatDateTime } from '../../../core/i18n/i18n.ts';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/bulk-data';

// /info/bulk-data/: the daily snapshots of the public data and their change files (ADR 0036), for
// everyone to see — what exists, its size, rows and SHA-256; downloading needs a paid plan's API key.

const PATH = '/info/bulk-data/';

/** A file size as the reader's language writes it: "1.2 MB", "1,2 Mo". */
function fileSize(lang: string, bytes: number): string {
  const [value, unit] =
    bytes >= 1_000_000_000
      ? [bytes / 1e9, 'gigabyte']
      : bytes >= 1_000_000
        ? [bytes / 1e6, 'megabyte']
        : bytes >= 1_000
          ? [bytes / 1e3, 'kilobyte']
          : [bytes, 'byte'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(
    value,
  );
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(services.reference, lang);
  const snapshots = await listBulkSnapshots(bulkDataDirOf(services));
  return {
    seo: {
      siteUrl: services.siteUrl,
      lang,
      path: PATH,
      title: p.t('bulkData.title'),
      description: p.t('bulkData.description'),
    },
    example: `curl -H "Authorization: Bearer rk_…" -O ${services.siteUrl}/api/bulk/${snapshots[0]?.snapshot ?? '{snapshot}'}/companies.jsonl.gz`,
    apiKeysHref: p.path('/settings/api/'),
    pricingHref: p.path('/info/pricing/'),
    snapshots: snapshots.map((s) => ({
      name: s.snapshot,
      createdAt: formatDateTime(lang, s.created_at),
      previous: s.previous,
      files: s.files.map((f) => ({
        name: f.name,
        href: `/api/bulk/${s.snapshot}/${f.name}`,
        section: f.section,
        kind: f.kind,
        format: f.format,
        rows: p.number(f.rows),
        size: fileSize(lang, f.bytes),
        sha256: f.sha256,
      })),
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function BulkDataPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { snapshots } = loaderData;
  return (
    <div className="kb-page bulk-data">
      <h1>{t('bulkData.title')}</h1>
      <p>{t('bulkData.intro')}</p>
      <p>
        {t('bulkData.access')} <a href={loaderData.pricingHref}>{t('bulkData.pricing')}</a> ·{' '}
        <a href={loaderData.apiKeysHref}>{t('bulkData.apiKeys')}</a>
      </p>
      <pre>
        <code>{loaderData.example}</code>
      </pre>
      <p>{t('bulkData.changes')}</p>
      {snapshots.length === 0 ? (
        <p role="status">{t('bulkData.none')}</p>
      ) : (
        snapshots.map((s) => (
          <section key={s.name} aria-labelledby={`snapshot-${s.name}`}>
            <h2 id={`snapshot-${s.name}`}>{t('bulkData.snapshot', { date: s.createdAt })}</h2>
            {s.previous ? <p>{t('bulkData.since', { previous: s.previous })}</p> : null}
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('bulkData.file')}</th>
                    <th scope="col">{t('bulkData.kind')}</th>
                    <th scope="col">{t('bulkData.rows')}</th>
                    <th scope="col">{t('bulkData.size')}</th>
                    <th scope="col">SHA-256</th>
                  </tr>
                </thead>
                <tbody>
                  {s.files.map((f) => (
                    <tr key={f.name}>
                      <th scope="row">
                        <a href={f.href} rel="nofollow" download>
                          {f.name}
                        </a>
                      </th>
                      <td>{f.kind === 'changes' ? t('bulkData.kindChanges') : t('bulkData.kindSnapshot')}</td>
                      <td>{f.rows}</td>
                      <td>{f.size}</td>
                      <td>
                        <code>{f.sha256}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ))
      )}
    </div>
  );
}
