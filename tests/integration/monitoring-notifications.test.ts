import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeCredits, grantCredits } from '../../core/billing/ledger.ts';
import { changeLineText, loadChangeWords } from '../../core/changes/change-words.ts';
import { createMailer, type Mailer } from '../../core/email/mailer.ts';
import { formatDay, i18nFor } from '../../core/i18n/i18n.ts';
import { buildMonitoringReports } from '../../core/monitoring/build-reports.ts';
import { trackCompany } from '../../core/monitoring/existing-trackings.ts';
import { createNewTracking } from '../../core/monitoring/new-trackings.ts';
import { listNewCompaniesReports, listUpdateReports, reportRangeOf } from '../../core/monitoring/reports.ts';
import { tellUsers } from '../../core/monitoring/tell-users.ts';
import { NOTIFICATION_KINDS, notify } from '../../core/notifications/notifications.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import { addWatchlistObjects } from '../../core/watchlists/watchlist-objects.ts';
import { createWatchlist } from '../../core/watchlists/watchlists.ts';
import { outbox, textOf } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser, someCompanies, type TestUser } from '../support/users.ts';

// Notifications and the digest email link to what they announce (ADR 0015 "Notifications, the
// digest and the dashboard"): each kind to its page, a run's notification to that run's reports;
// the digest in the user's language with a link to each report; the dashboard as a work surface
// (tracked companies by last change, changed this week, credits used this month). Pages of the
// production build, the reports built and told as the monitoring job does, the dev outbox.

let t: TestApp;
let mailer: Mailer;
const SITE = 'http://localhost:3000';
const quiet = { info: () => {}, error: () => {} };
const translate = (lang: Lang) => {
  const { t: tr } = i18nFor(lang);
  return (key: string, values?: Record<string, unknown>) => (values ? tr(key, values) : tr(key));
};

beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
  mailer = createMailer({ db: t.db, settings: { from: 'Registra <no-reply@localhost>' }, log: quiet, translate });
});
afterAll(async () => {
  await mailer?.close();
  await t?.close();
});

const { get } = pageClient(() => t.app);

async function change(id: number, field: string, oldValue: unknown, newValue: unknown, observedAt?: Date) {
  await t.db.kysely
    .insertInto('company_changes')
    .values({
      legal_entity_id: id,
      field,
      old_value: oldValue === null ? null : sql`${JSON.stringify(oldValue)}::jsonb`,
      new_value: newValue === null ? null : sql`${JSON.stringify(newValue)}::jsonb`,
      source: 'ch-companies',
      ...(observedAt ? { observed_at: observedAt } : {}),
    })
    .execute();
}

/** Builds every tracking's reports and tells the users, as the monitoring job does. */
async function runReports() {
  const built = await buildMonitoringReports(t.db, t.reference);
  await tellUsers(t.db, built, { mailer, siteUrl: SITE, translate, reference: t.reference });
  await mailer.settled();
}

async function notificationsOf(user: TestUser) {
  const rows = await t.db.kysely
    .selectFrom('notifications')
    .select(['id', 'kind', 'data', 'read_at'])
    .where('user_id', '=', user.id)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), data: r.data as Record<string, string> }));
}

describe('notifications', () => {
  it('link to what they announce, each kind; opening one marks it read and goes there', async () => {
    const user = await createSignedInUser(t.db, 'notify-links');
    const [tracked, fresh] = await someCompanies(t.db, 2, 300);
    await trackCompany(t.db, user.id, tracked.id);
    await change(tracked.id, 'name', 'First Name Ltd', 'Second Name Ltd');
    await runReports();
    // A second run: its notification links to its own report, not the first run's.
    await change(tracked.id, 'name', 'Second Name Ltd', 'Third Name Ltd');
    const jurisdiction = await t.db.kysely
      .selectFrom('legal_entities')
      .select('jurisdiction_id')
      .where('id', '=', fresh.id)
      .executeTakeFirstOrThrow();
    await createNewTracking(t.db, user.id, {
      name: 'Newcomers',
      query: `/companies/search/?jurisdiction=${jurisdiction.jurisdiction_id}`,
    });
    await change(fresh.id, 'company', null, null);
    await runReports();
    for (const kind of ['welcome', 'new_sign_in', 'password_changed', 'email_changed'] as const) {
      await notify(t.db, user.id, kind, { device: 'Firefox', ip: '192.0.2.1', email: 'new@example.com' });
    }
    // An export's notifications name it (tests/integration/export-jobs.test.ts); without, the exports page.
    for (const kind of ['export_ready', 'export_failed'] as const) {
      await notify(t.db, user.id, kind, { name: 'registra_legal_entities.csv', count: '3' });
    }

    const updates = (await listUpdateReports(t.db, user.id)).data;
    expect(updates).toHaveLength(2);
    const [second, first] = updates;
    const newReports = (await listNewCompaniesReports(t.db, user.id)).data;
    expect(newReports).toHaveLength(1);

    const notifications = await notificationsOf(user);
    expect(new Set(notifications.map((n) => n.kind))).toEqual(new Set(NOTIFICATION_KINDS));
    const runUpdates = notifications.filter((n) => n.kind === 'tracking_updates');
    expect(runUpdates.map((n) => n.data.reports)).toEqual([String(first.id), String(second.id)]);
    const expected: Record<string, string> = {
      welcome: '/companies/search/',
      new_sign_in: '/dashboard/settings/security/',
      password_changed: '/dashboard/settings/security/',
      email_changed: '/dashboard/settings/profile/',
      export_ready: '/dashboard/exports/',
      export_failed: '/dashboard/exports/',
      new_companies: `/companies/monitoring/new/reports/?reports=${newReports[0].id}`,
    };

    // The list shows each one as a link that opens it.
    const list = await get('/dashboard/notifications/', user);
    expect(list.statusCode).toBe(200);
    for (const n of notifications) expect(list.body).toContain(`<a href="/dashboard/notifications/${n.id}/">`);

    for (const n of notifications) {
      const target =
        n.kind === 'tracking_updates'
          ? `/companies/monitoring/updates/reports/?reports=${n.data.reports}`
          : expected[n.kind];
      const opened = await get(`/dashboard/notifications/${n.id}/`, user);
      expect(opened.statusCode, n.kind).toBe(303);
      expect(opened.headers.location, n.kind).toBe(target);
      expect((await get(target, user)).statusCode, target).toBe(200);
    }
    expect((await notificationsOf(user)).every((n) => n.read_at !== null)).toBe(true);

    // The second run's report page holds that run's change only.
    const secondPage = textOf((await get(`/companies/monitoring/updates/reports/?reports=${second.id}`, user)).body);
    expect(secondPage).toContain('Third Name Ltd');
    expect(secondPage).not.toContain('First Name Ltd');
    expect(secondPage).toContain('Shown: the reports one notification or email announced. See every report');
    const newPage = textOf((await get(expected.new_companies, user)).body);
    expect(newPage).toContain('Newcomers');
    expect(newPage).toContain(fresh.name);

    // In German, to the German page; another user's notification, or a guest, gets nothing.
    const german = await get(`/de/dashboard/notifications/${runUpdates[1].id}/`, user);
    expect(german.headers.location).toBe(`/de/companies/monitoring/updates/reports/?reports=${second.id}`);
    const other = await createSignedInUser(t.db, 'notify-other');
    expect((await get(`/dashboard/notifications/${runUpdates[1].id}/`, other)).statusCode).toBe(404);
    expect((await get(`/dashboard/notifications/${runUpdates[1].id}/`)).statusCode).toBe(401);
  });

  it('of a run name the run’s reports as one range, read back by the reports pages', () => {
    expect(reportRangeOf('12-40')).toEqual({ first: 12, last: 40 });
    expect(reportRangeOf('12')).toEqual({ first: 12, last: 12 });
    expect(reportRangeOf('40-12')).toBeNull();
    expect(reportRangeOf('12,13')).toBeNull();
    expect(reportRangeOf(null)).toBeNull();
  });
});

describe('the digest email', () => {
  it('is in the user’s language: subject, body and links to each report in that language', async () => {
    const companies = await someCompanies(t.db, 3, 310);
    const users: Record<Lang, TestUser> = {
      en: await createSignedInUser(t.db, 'digest-en'),
      de: await createSignedInUser(t.db, 'digest-de'),
      fr: await createSignedInUser(t.db, 'digest-fr'),
    };
    const langs = ['en', 'de', 'fr'] as const;
    for (const [i, lang] of langs.entries()) {
      await t.db.kysely.updateTable('users').set({ language: lang }).where('id', '=', users[lang].id).execute();
      await trackCompany(t.db, users[lang].id, companies[i].id);
    }
    await change(companies[0].id, 'name', 'Alpha Old', 'Alpha New');
    await change(companies[1].id, 'name', 'Beta Alt', 'Beta Neu');
    await change(companies[1].id, 'status', 'active', 'dormant');
    await change(companies[2].id, 'name', 'Gamma Ancien', 'Gamma Nouveau');
    await runReports();

    for (const [i, lang] of langs.entries()) {
      const user = users[lang];
      const tr = translate(lang);
      const [report] = (await listUpdateReports(t.db, user.id)).data;
      const mails = (await outbox(t.db, user.email)).filter((m) => m.kind === 'monitoring_digest');
      expect(mails, lang).toHaveLength(1);
      const [mail] = mails;
      expect(mail.subject).toBe(tr('monitoring.digest.subject'));
      const prefix = lang === 'en' ? '' : `/${lang}`;
      const reportLink = `${SITE}${prefix}/companies/monitoring/updates/reports/?reports=${report.id}`;
      // Each report: the company (linked to its report), its facts, each change line, the link.
      expect(mail.text_body).toContain(tr('monitoring.digest.intro'));
      expect(mail.text_body).toContain(companies[i].name);
      expect(mail.text_body).toContain(`${tr('monitoring.digest.openReport')}: ${reportLink}`);
      expect(mail.text_body).toContain(formatDay(lang, report.created_on));
      expect(mail.text_body).toContain(tr('monitoring.digest.changes', { count: report.changes.length }));
      const words = await loadChangeWords(t.db.kysely, t.reference, lang, report.changes);
      for (const c of report.changes) expect(mail.text_body).toContain(changeLineText(c, words));
      expect(mail.html_body).toContain(`<html lang="${lang}">`);
      expect(mail.html_body).toContain(`<a href="${reportLink}"`);
      expect(mail.html_body).toContain(`${SITE}${prefix}/dashboard/settings/notifications/`);
      // The linked page is that report, for its reader.
      const page = await get(new URL(reportLink).pathname + new URL(reportLink).search, user);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<html lang="${lang}"`);
      expect(textOf(page.body)).toContain(companies[i].name);
    }
    // German and French mails hold none of the English texts.
    const english = translate('en');
    for (const lang of ['de', 'fr'] as const) {
      const [mail] = (await outbox(t.db, users[lang].email)).filter((m) => m.kind === 'monitoring_digest');
      for (const key of ['monitoring.digest.subject', 'monitoring.digest.intro', 'monitoring.digest.openReport']) {
        expect(`${mail.subject}\n${mail.text_body}`, `${lang} ${key}`).not.toContain(english(key));
      }
    }
    const [german] = (await outbox(t.db, users.de.email)).filter((m) => m.kind === 'monitoring_digest');
    expect(german.subject).toBe('Registra: Neuigkeiten zu Ihren beobachteten Unternehmen');
    expect(german.text_body).toContain('Bericht öffnen');
    expect(german.text_body).toContain('2 Änderungen');
  });
});

describe('the dashboard', () => {
  it('lists tracked companies by last change, counts and filters those changed this week, and credits used this month', async () => {
    const user = await createSignedInUser(t.db, 'dashboard-work');
    const [recent, older, never] = await someCompanies(t.db, 3, 320);
    const day = 24 * 60 * 60 * 1000;
    const twoDaysAgo = new Date(Date.now() - 2 * day);
    const tenDaysAgo = new Date(Date.now() - 10 * day);
    // The companies' own histories, whatever the template holds: one changed lately, one before, one never.
    await t.db.kysely
      .deleteFrom('company_changes')
      .where('legal_entity_id', 'in', [recent.id, older.id, never.id])
      .execute();
    await change(recent.id, 'name', 'R1', 'R2', twoDaysAgo);
    await change(older.id, 'name', 'O1', 'O2', tenDaysAgo);
    await change(never.id, 'company', null, null, twoDaysAgo);
    for (const c of [never, older, recent]) await trackCompany(t.db, user.id, c.id);
    const list = await createWatchlist(t.db, user.id, { name: 'Suppliers' });
    await addWatchlistObjects(t.db, user.id, list.id, [recent.id, older.id]);
    // Credits: 3 spent this month, 5 spent last month (not counted), a grant (not a use).
    await grantCredits(t.db, user.id, 100);
    await chargeCredits(t.db, user.id, 3, 'export');
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - day);
    await t.db.kysely
      .insertInto('credit_ledger')
      .values({ user_id: user.id, delta: -5, reason: 'profile', created_at: lastMonth })
      .execute();
    await notify(t.db, user.id, 'password_changed');

    const page = await get('/dashboard/', user);
    expect(page.statusCode).toBe(200);
    const text = textOf(page.body);
    expect(text).toContain('You track 3 companies.');
    expect(text).toContain('1 changed this week');
    expect(text).toContain('Used this month: 3 credits.');
    // The most recently changed first, each with its last change date; one never changed says so.
    const order = [recent.name, older.name, never.name].map((name) => text.indexOf(name));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain(`${recent.name} · last change ${formatDay('en', twoDaysAgo)}`);
    expect(text).toContain(`${older.name} · last change ${formatDay('en', tenDaysAgo)}`);
    expect(text).toContain(`${never.name} · no change recorded yet`);
    // The list: its companies' last change, and how many changed this week.
    expect(text).toMatch(
      new RegExp(`Suppliers · 2 companies · last change ${formatDay('en', twoDaysAgo)} · 1 changed this week`),
    );
    // The latest notifications are links that open them.
    const [notification] = await notificationsOf(user);
    expect(page.body).toContain(`<a href="/dashboard/notifications/${notification.id}/">`);
    // The content comes before the account's navigation.
    expect(page.body.indexOf('id="dash-tracked"')).toBeLessThan(page.body.indexOf('class="user-data-nav"'));

    // "Changed this week" keeps only those.
    const changed = textOf((await get('/dashboard/?changed=week', user)).body);
    expect(changed).toContain(recent.name);
    expect(changed).not.toContain(older.name);
    expect(changed).not.toContain(never.name);
    expect(changed).toContain('Show every tracked company');

    const german = textOf((await get('/de/dashboard/', user)).body);
    expect(german).toContain('Sie beobachten 3 Unternehmen.');
    expect(german).toContain('1 diese Woche geändert');
    expect(german).toContain(`zuletzt geändert am ${formatDay('de', twoDaysAgo)}`);
    expect(german).toContain('Diesen Monat verbraucht: 3');
  });
});
