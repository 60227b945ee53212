import type { Db } from '../../db/client.ts';
import { changeLineText, loadChangeWords } from '../changes/change-words.ts';
import { escapeHtml, type Translate } from '../email/account-emails.ts';
import type { Mailer } from '../email/mailer.ts';
import { localePath } from '../i18n/i18n.ts';
import { notify } from '../notifications/notifications.ts';
import type { Lang, Reference } from '../reference/reference-data.ts';
import { visibleCompany } from '../takedowns/visible.ts';
import type { BuiltReports } from './build-reports.ts';
import { type FieldChange, visibleReportChanges } from './reports.ts';

// After reports are built, each user who got some is told once: a dashboard notification per kind
// (core/notifications) and one digest email (the outbox, core/email) holding every report of the
// run — as their notification settings say (`users.email_notifications`: tracking_updates,
// new_companies). Never one email per change.

/** Companies, changes per company and new companies a digest names before "… and N more". */
const DIGEST_COMPANIES = 20;
const DIGEST_CHANGES = 5;
const DIGEST_NEW = 10;

export type DigestSection = { title: string; lines: string[] };
export type Digest = { subject: string; text: string; html: string };

/** The digest email of one user in their language. */
export function composeDigest(
  t: Translate,
  values: { name: string; link: string; settingsLink: string; sections: DigestSection[] },
  lang: Lang,
): Digest {
  const subject = t('monitoring.digest.subject');
  const greeting = t('account.email.greeting', { name: values.name });
  const intro = t('monitoring.digest.intro');
  const action = t('monitoring.digest.action');
  const settings = t('monitoring.digest.settings', { link: values.settingsLink });
  const signature = t('account.email.signature');
  const text = [
    greeting,
    '',
    intro,
    '',
    ...values.sections.flatMap((s) => [s.title, ...s.lines.map((l) => `  - ${l}`), '']),
    `${action}: ${values.link}`,
    '',
    settings,
    '',
    signature,
    '',
  ].join('\n');
  const html = [
    '<!DOCTYPE html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1b2430;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    ...values.sections.flatMap((s) => [
      `<h2 style="font-size:16px">${escapeHtml(s.title)}</h2>`,
      `<ul>${s.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
    ]),
    `<p><a href="${escapeHtml(values.link)}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>`,
    `<p style="font-size:13px;color:#5b6675">${escapeHtml(settings)}</p>`,
    `<p>${escapeHtml(signature)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

function jsonOf(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** Notifies and emails every user of a run; returns how many digests were sent. */
export async function tellUsers(
  db: Db,
  built: BuiltReports,
  options: { mailer: Mailer; siteUrl: string; translate: (lang: Lang) => Translate; reference: Reference },
): Promise<number> {
  let sent = 0;
  for (const [userId, reports] of built.users) {
    const user = await db.kysely
      .selectFrom('users')
      .select(['email', 'name', 'language', 'email_notifications', 'activated_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) continue;
    const lang = user.language as Lang;
    const t = options.translate(lang);
    const updates =
      reports.updateReports.length > 0
        ? await db.kysely
            .selectFrom('existing_objects_reports as r')
            .leftJoin('legal_entities as b', 'b.id', 'r.legal_entity_id')
            .select(['r.legal_entity_id', 'b.name', 'r.changes'])
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
            .select(['n.name as tracking', 'r.legal_entity_ids', 'r.companies'])
            .where('r.user_id', '=', userId)
            .where('r.id', 'in', reports.newReports)
            .orderBy('r.id')
            .execute()
        : [];
    const newCompanies = fresh.reduce((sum, r) => sum + Number(r.companies), 0);
    if (updates.length > 0) await notify(db, userId, 'tracking_updates', { count: String(updates.length) });
    if (newCompanies > 0) await notify(db, userId, 'new_companies', { count: String(newCompanies) });

    if (!user.activated_at) continue;
    const wants = new Set(user.email_notifications);
    const sections: DigestSection[] = [];
    if (wants.has('tracking_updates') && updates.length > 0) {
      const more = (count: number) => t('monitoring.digest.more', { count });
      // The members taken down since a report was built are left out of its changes (ADR 0021).
      const shownUpdates = await Promise.all(
        updates.slice(0, DIGEST_COMPANIES).map(async (u) => ({
          ...u,
          changes: await visibleReportChanges(db, (jsonOf(u.changes) as FieldChange[]) ?? []),
        })),
      );
      // Each change in words, as the report page writes it (core/changes/change-words.ts).
      const words = await loadChangeWords(
        db.kysely,
        options.reference,
        lang,
        shownUpdates.flatMap((u) => u.changes.slice(0, DIGEST_CHANGES)),
      );
      const lines = shownUpdates.flatMap((u) => {
        const changes = u.changes;
        const shown = changes.slice(0, DIGEST_CHANGES).map((c) => `${u.name ?? '?'} — ${changeLineText(c, words)}`);
        return changes.length > DIGEST_CHANGES ? [...shown, more(changes.length - DIGEST_CHANGES)] : shown;
      });
      if (updates.length > DIGEST_COMPANIES) lines.push(more(updates.length - DIGEST_COMPANIES));
      sections.push({ title: t('monitoring.digest.updates'), lines });
    }
    if (wants.has('new_companies') && fresh.length > 0) {
      const ids = fresh.flatMap((r) => r.legal_entity_ids.slice(0, DIGEST_NEW).map(Number));
      const names = new Map(
        (ids.length > 0
          ? await db.kysely
              .selectFrom('legal_entities')
              .select(['id', 'name'])
              .where('id', 'in', ids)
              .where(visibleCompany())
              .execute()
          : []
        ).map((r) => [Number(r.id), r.name]),
      );
      for (const r of fresh) {
        const shown = r.legal_entity_ids.slice(0, DIGEST_NEW).flatMap((id) => names.get(Number(id)) ?? []);
        const rest = Number(r.companies) - shown.length;
        sections.push({
          title: t('monitoring.digest.newCompanies', { name: r.tracking }),
          lines: rest > 0 ? [...shown, t('monitoring.digest.more', { count: rest })] : shown,
        });
      }
    }
    if (sections.length === 0) continue;
    const page = updates.length > 0 ? '/companies/monitoring/updates/reports/' : '/companies/monitoring/new/reports/';
    const digest = composeDigest(
      t,
      {
        name: user.name,
        link: `${options.siteUrl}${localePath(lang, page)}`,
        settingsLink: `${options.siteUrl}${localePath(lang, '/dashboard/settings/notifications/')}`,
        sections,
      },
      lang,
    );
    await options.mailer.send({ to: user.email, ...digest, kind: 'monitoring_digest' });
    sent += 1;
  }
  return sent;
}
