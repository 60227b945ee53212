import { useTranslation } from 'react-i18next';
import { pageMeta } from '../../meta.ts';
import { presenter } from '../../presenters/present.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { servicesContext } from '../../services.ts';
import type { Route } from './+types/legal-notice';

// /info/legal-notice/: who operates the site (Impressum, Mentions légales), linked from the footer
// of every page. What it says comes from the operator's LEGAL_* settings (core/legal/legal-notice.ts);
// without them the page says plainly that the operator has not set it, never a made-up operator.

const PATH = '/info/legal-notice/';

export async function loader({ params, context }: Route.LoaderArgs) {
  const { reference, siteUrl, legalNotice } = context.get(servicesContext);
  const lang = langOf(params);
  const p = presenter(reference, lang);
  return {
    seo: { siteUrl, lang, path: PATH, title: p.t('legalNotice.title'), description: p.t('legalNotice.description') },
    notice: legalNotice ?? null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function LegalNoticePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const notice = loaderData.notice;
  return (
    <div className="kb-page legal-notice">
      <h1>{t('legalNotice.title')}</h1>
      {notice === null ? (
        <p role="status">{t('legalNotice.notSet')}</p>
      ) : (
        <dl>
          <dt>{t('legalNotice.operator')}</dt>
          <dd>{notice.operator}</dd>
          <dt>{t('legalNotice.address')}</dt>
          <dd>
            <address>
              {notice.address.map((line, i) => (
                // Lines of one address: their place is their identity.
                <span key={i}>
                  {i > 0 ? <br /> : null}
                  {line}
                </span>
              ))}
            </address>
          </dd>
          <dt>{t('legalNotice.contact')}</dt>
          <dd>
            {t('legalNotice.email')}: <a href={`mailto:${notice.email}`}>{notice.email}</a>
            {notice.phone ? (
              <>
                <br />
                {t('legalNotice.phone')}: <a href={`tel:${notice.phone.replace(/[^+\d]/g, '')}`}>{notice.phone}</a>
              </>
            ) : null}
          </dd>
          {notice.representative ? (
            <>
              <dt>{t('legalNotice.representative')}</dt>
              <dd>{notice.representative}</dd>
            </>
          ) : null}
          {notice.register ? (
            <>
              <dt>{t('legalNotice.register')}</dt>
              <dd>{notice.register}</dd>
            </>
          ) : null}
          {notice.vatId ? (
            <>
              <dt>{t('legalNotice.vatId')}</dt>
              <dd>{notice.vatId}</dd>
            </>
          ) : null}
        </dl>
      )}
    </div>
  );
}
