import type { Db } from '../../db/client.ts';
import { siteLink } from '../accounts/account-links.ts';
import { changeLineText, loadChangeWords } from '../changes/change-words.ts';
import type { Translate } from '../email/account-emails.ts';
import type { Mailer } from '../email/mailer.ts';
import { escapeHtml } from '../html/escape-html.ts';
import { formatDay } from '../i18n/i18n.ts';
import { notify } from '../notifications/notifications.ts';
import { displayName, type Lang, type Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import type { BuiltReports } from './build-reports.ts';
import {
  type FieldChange,
  NEW_REPORTS_PATH,
  reportRangeParam,
  UPDATE_REPORTS_PATH,
  visibleReportChanges,
} from './reports.ts';

// After reports are built, each user who got some is told once: a dashboard notification per kind
// (core/notifications) and one digest email (the outbox, core/email) holding every report of the
// run — as their notification settings say (`users.email_notifications`: tracking_updates,
// new_companies). Never one email per change.

/** Companies, changes per company and new companies a digest names before "… and N more". */
const DIGEST_COMPANIES = 20;
const DIGEST_CHANGES = 5;
const DIGEST_NEW = 10;

/** One report as the digest shows it: like its row on the report page, linked to that report. */
export type DigestReport = {
  /** The company's name, or the tracking's name for new companies. */
  title: string;
  /** The report's page (absolute, in the reader's language). */
  href: string;
  /** The row's other cells: jurisdiction, created on, how many changes or companies. */
  facts: string[];
  /** Its changes, or the new companies (each linked to its profile). */
  lines: { text: string; href?: string }[];
};
export type DigestSection = { title: string; reports: DigestReport[]; more?: string };
export type Digest = { subject: string; text: string; html: string };

const LINK_STYLE = 'color:#1f4e8c';
const MUTED_STYLE = 'font-size:13px;color:#5b6675';

/** The digest email of one user in their language: each report under its section, linked to its page. */
export function composeDigest(
  t: Translate,
  values: { name: string; link: string; settingsLink: string; sections: DigestSection[] },
  lang: Lang,
): Digest {
  const subject = t('monitoring.digest.subject');
  const greeting = t('account.email.greeting', { name: values.name });
  const intro = t('monitoring.digest.intro');
  const action = t('monitoring.digest.action');
  const open = t('monitoring.digest.openReport');
  const settings = t('monitoring.digest.settings', { link: values.settingsLink });
  const signature = t('account.email.signature');
  const text = [
    greeting,
    '',
    intro,
    '',
    ...values.sections.flatMap((s) => [
      s.title,
      '',
      ...s.reports.flatMap((r) => [
        [r.title, ...r.facts].join(' · '),
        ...r.lines.map((l) => `  - ${l.text}`),
        `  ${open}: ${r.href}`,
        '',
      ]),
      ...(s.more ? [s.more, ''] : []),
    ]),
    `${action}: ${values.link}`,
    '',
    settings,
    '',
    signature,
    '',
  ].join('\n');
  const a = (href: string, label: string) =>
    `<a href="${escapeHtml(href)}" style="${LINK_STYLE}">${escapeHtml(label)}</a>`;
  const html = [
    '<!DOCTYPE html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1b2430;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    ...values.sections.flatMap((s) => [
      `<h2 style="font-size:18px">${escapeHtml(s.title)}</h2>`,
      ...s.reports.flatMap((r) => [
        `<h3 style="font-size:16px;margin-bottom:0">${a(r.href, r.title)}</h3>`,
        r.facts.length > 0 ? `<p style="${MUTED_STYLE};margin-top:0">${escapeHtml(r.facts.join(' · '))}</p>` : '',
        `<ul>${r.lines.map((l) => `<li>${l.href ? a(l.href, l.text) : escapeHtml(l.text)}</li>`).join('')}</ul>`,
      ]),
      ...(s.more ? [`<p>${escapeHtml(s.more)}</p>`] : []),
    ]),
    `<p><a href="${escapeHtml(values.link)}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>`,
    `<p style="${MUTED_STYLE}">${escapeHtml(settings)}</p>`,
    `<p>${escapeHtml(signature)}</p>`,
    '</body></html>',
  ]
    .filter((line) => line !== '')
    .join('\n');
  return { subject, text, html };
}

function jsonOf(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** Notifies and emails every user of a run; returns how many digests were sent. */
export async function tellUsers(
  db: Db,
  built: BuiltReports,
  options: {
    mailer: Mailer;
    siteUrl: string;
    translate: (lang: Lang) => Translate;
    /** Names the companies' jurisdictions and writes each change in words, as the report page does. */
    reference: Reference;
  },
): Promise<number> {
  let sent = 0;
  for (const [userId, reports] of built.users) {
    const user = await db.kysely
      .selectFrom('users')
      .select(['email', 'name', 'language', 'email_notifications', 'activated_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) continue;
    // The language the user chose (signing up, settings → interface): ADR 0011.
    const lang = user.language as Lang;
    const t = options.translate(lang);
    /** An absolute link to a page in the user's language. */
    const link = (path: string) => siteLink(options.siteUrl, lang, path);
    const reportsLink = (page: string, ids: number[]) => link(`${page}?reports=${reportRangeParam(ids)}`);
    const updates =
      reports.updateReports.length > 0
        ? await db.kysely
            .selectFrom('existing_objects_reports as r')
            .leftJoin('legal_entities as b', 'b.id', 'r.legal_entity_id')
            .select(['r.id', 'r.created_at', 'r.legal_entity_id', 'b.name', 'b.jurisdiction_id', 'r.changes'])
            .where('r.user_id', '=', userId)
            // A company taken down since the report was built is mailed to nobody (ADR 0021).
            .where(visibleCompany('b'))
            .where('r.id', 'in', reports.updateReports)
            .orderBy('b.name')
            .execute()
        : [];
    const fresh =
      reports.newReports.length > 0
        ? await db.kysely
            .selectFrom('new_objects_reports as r')
            .innerJoin('new_objects_tracking as n', (j) =>
              j.onRef('n.user_id', '=', 'r.user_id').onRef('n.id', '=', 'r.tracking_id'),
            )
            .select(['r.id', 'r.created_at', 'n.name as tracking', 'r.legal_entity_ids', 'r.companies'])
            .where('r.user_id', '=', userId)
            .where('r.id', 'in', reports.newReports)
            .orderBy('r.id')
            .execute()
        : [];
    const newCompanies = fresh.reduce((sum, r) => sum + Number(r.companies), 0);
    // Each notification links to the run's reports (core/notifications notificationPath).
    if (updates.length > 0)
      await notify(db, userId, 'tracking_updates', {
        count: String(updates.length),
        reports: reportRangeParam(updates.map((u) => Number(u.id))),
      });
    if (newCompanies > 0)
      await notify(db, userId, 'new_companies', {
        count: String(newCompanies),
        reports: reportRangeParam(fresh.map((r) => Number(r.id))),
      });

    if (!user.activated_at) continue;
    const wants = new Set(user.email_notifications);
    const more = (count: number) => t('monitoring.digest.more', { count });
    const sections: DigestSection[] = [];
    if (wants.has('tracking_updates') && updates.length > 0) {
      const languageId = options.reference.languageIds[lang];
      // The members taken down since a report was built are left out of its changes (ADR 0021).
      const visible = await Promise.all(
        updates.slice(0, DIGEST_COMPANIES).map(async (u) => ({
          u,
          changes: await visibleReportChanges(
            db,
            (jsonOf(u.changes) as FieldChange[]) ?? [],
            userId,
            Number(u.legal_entity_id),
          ),
        })),
      );
      // Each change in words, as the report page writes it (core/changes/change-words.ts).
      const words = await loadChangeWords(
        db.kysely,
        options.reference,
        lang,
        visible.flatMap((v) => v.changes.slice(0, DIGEST_CHANGES)),
      );
      const shown = visible.map(({ u, changes }): DigestReport => {
        const lines = changes.slice(0, DIGEST_CHANGES).map((c) => ({ text: changeLineText(c, words) }));
        if (changes.length > DIGEST_CHANGES) lines.push({ text: more(changes.length - DIGEST_CHANGES) });
        const jurisdiction = displayName(options.reference.locations.byId.get(Number(u.jurisdiction_id)), languageId);
        return {
          title: u.name ?? '?',
          href: reportsLink(UPDATE_REPORTS_PATH, [Number(u.id)]),
          facts: [
            ...(jurisdiction ? [jurisdiction] : []),
            formatDay(lang, new Date(u.created_at)),
            t('monitoring.digest.changes', { count: changes.length }),
          ],
          lines,
        };
      });
      sections.push({
        title: t('monitoring.digest.updates'),
        reports: shown,
        more: updates.length > DIGEST_COMPANIES ? more(updates.length - DIGEST_COMPANIES) : undefined,
      });
    }
    if (wants.has('new_companies') && fresh.length > 0) {
      const ids = fresh.flatMap((r) => r.legal_entity_ids.slice(0, DIGEST_NEW).map(Number));
      const companies = new Map(
        (ids.length > 0
          ? await db.kysely
              .selectFrom('legal_entities')
              .select(['id', 'uri', 'name'])
              .where('id', 'in', ids)
              .where(visibleCompany())
              .execute()
          : []
        ).map((r) => [Number(r.id), r]),
      );
      sections.push({
        title: t('monitoring.newReports.title'),
        reports: fresh.map((r) => {
          const shown = r.legal_entity_ids.slice(0, DIGEST_NEW).flatMap((id) => {
            const company = companies.get(Number(id));
            return company
              ? [{ text: company.name, href: link(`/companies/details/${encodeURIComponent(company.uri)}/`) }]
              : [];
          });
          const rest = Number(r.companies) - shown.length;
          return {
            title: t('monitoring.digest.newCompanies', { name: r.tracking }),
            href: reportsLink(NEW_REPORTS_PATH, [Number(r.id)]),
            facts: [
              formatDay(lang, new Date(r.created_at)),
              t('monitoring.digest.companies', { count: Number(r.companies) }),
            ],
            lines: rest > 0 ? [...shown, { text: more(rest) }] : shown,
          };
        }),
      });
    }
    if (sections.length === 0) continue;
    const page = updates.length > 0 ? UPDATE_REPORTS_PATH : NEW_REPORTS_PATH;
    const digest = composeDigest(
      t,
      { name: user.name, link: link(page), settingsLink: link('/dashboard/settings/notifications/'), sections },
      lang,
    );
    await options.mailer.send({ to: user.email, ...digest, kind: 'monitoring_digest' });
    sent += 1;
  }
  return sent;
}
