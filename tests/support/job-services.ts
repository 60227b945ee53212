// What a test needs to run the job worker's jobs in-process (drainJobs): the database, the
// reference data, a development-outbox mailer and the translations.
import { createMailer } from '../../core/email/mailer.ts';
import { i18nFor } from '../../core/i18n/i18n.ts';
import type { Lang, Reference } from '../../core/reference/reference-data.ts';
import type { Db } from '../../db/client.ts';
import type { JobServices } from '../../jobs/worker.ts';

export const quietLog = { info: () => {}, error: () => {} };

export function testTranslate(lang: Lang) {
  const { t } = i18nFor(lang);
  return (key: string, values?: Record<string, unknown>) => (values ? t(key, values) : t(key));
}

/** Job services over the test database; close the mailer when done. */
export function testJobServices(db: Db, reference: Reference): JobServices {
  const mailer = createMailer({
    db,
    settings: { from: 'Registra <no-reply@localhost>' },
    log: quietLog,
    translate: testTranslate,
  });
  return { db, reference, mailer, siteUrl: 'http://localhost:3000', translate: testTranslate };
}
