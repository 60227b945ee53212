import { sql } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../db/client.ts';
import type { Lang } from '../reference/reference-data.ts';
import { type AccountEmailKind, composeAccountEmail, type Translate } from './account-emails.ts';

// Every email goes through the outbox table first (the request only inserts a row), then:
//  - with SMTP settings: delivered by nodemailer right away in the background, and retried by a
//    periodic drain (rows are claimed atomically, so several processes never send one twice);
//    a delivered row keeps its metadata but its bodies are blanked (they may hold one-time links);
//  - without them (development, tests): it stays in the outbox, and a log line shows the link.

export type MailSettings = {
  /** smtp(s)://user:pass@host:port — or the parts below. */
  smtpUrl?: string;
  host?: string;
  port?: number;
  user?: string;
  pass?: string;
  /** The From header, e.g. `Registra <no-reply@example.com>`. */
  from: string;
};

export type MailLog = {
  info(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
};

export type OutgoingEmail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  /** The one link that matters (activation, recovery), for the development log line. */
  link?: string;
};

export type Mailer = {
  mode: 'smtp' | 'outbox';
  send(email: OutgoingEmail): Promise<void>;
  /** Composes an account email in `lang` and sends it. */
  sendAccountEmail(
    kind: AccountEmailKind,
    values: { to: string; name: string; lang: Lang; link: string },
  ): Promise<void>;
  /**
   * Runs mail work after the current request has been answered (failures are logged): a request
   * whose answer must not reveal whether it sent an email returns before the work that would.
   */
  background(task: () => Promise<void>): void;
  /** Resolves when no background work is running (tests, shutdown). */
  settled(): Promise<void>;
  /** Delivers what is waiting (SMTP mode); returns how many were sent. */
  drain(): Promise<number>;
  /** Stops the periodic drain and waits for background work. */
  close(): Promise<void>;
};

const MAX_ATTEMPTS = 5;
const RETRY_AFTER_MS = 5 * 60 * 1000;
const BATCH = 20;

export function hasSmtp(settings: MailSettings): boolean {
  return Boolean(settings.smtpUrl || settings.host);
}

export function createMailer(options: {
  db: Db;
  settings: MailSettings;
  log: MailLog;
  translate: (lang: Lang) => Translate;
  /** Drain the outbox this often in SMTP mode (default one minute; 0: never). */
  drainIntervalMs?: number;
  /** A transport for tests (e.g. nodemailer's JSON transport); by default built from the settings. */
  transport?: Transporter;
}): Mailer {
  const { db, settings, log } = options;
  const transport =
    options.transport ??
    (hasSmtp(settings)
      ? nodemailer.createTransport(
          settings.smtpUrl ?? {
            host: settings.host,
            port: settings.port ?? 587,
            secure: settings.port === 465,
            auth: settings.user ? { user: settings.user, pass: settings.pass ?? '' } : undefined,
          },
        )
      : undefined);
  const mode = transport ? 'smtp' : 'outbox';

  let draining: Promise<number> | null = null;
  const drainOnce = async (): Promise<number> => {
    if (!transport) return 0;
    const now = new Date();
    const claimed = await db.kysely
      .updateTable('email_outbox')
      .set({ attempts: sql<number>`attempts + 1`, claimed_at: now })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('email_outbox')
          .select('id')
          .where('sent_at', 'is', null)
          .where('delivery', '=', 'smtp')
          .where('attempts', '<', MAX_ATTEMPTS)
          .where((w) =>
            w.or([w('claimed_at', 'is', null), w('claimed_at', '<', new Date(now.getTime() - RETRY_AFTER_MS))]),
          )
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'to_address', 'subject', 'text_body', 'html_body'])
      .execute();
    let sent = 0;
    for (const row of claimed) {
      try {
        await transport.sendMail({
          from: settings.from,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
        });
        await db.kysely
          .updateTable('email_outbox')
          .set({ sent_at: new Date(), text_body: '', html_body: '', error: null })
          .where('id', '=', row.id)
          .execute();
        sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error({ emailId: row.id, err: message }, 'email delivery failed; it will be retried');
        await db.kysely
          .updateTable('email_outbox')
          .set({ error: message.slice(0, 1000) })
          .where('id', '=', row.id)
          .execute();
      }
    }
    return sent;
  };
  const drain = (): Promise<number> => {
    draining ??= drainOnce().finally(() => {
      draining = null;
    });
    return draining;
  };

  const interval = options.drainIntervalMs ?? 60_000;
  const timer =
    transport && interval > 0
      ? setInterval(() => {
          drain().catch((error) => log.error({ err: String(error) }, 'email outbox drain failed'));
        }, interval)
      : undefined;
  timer?.unref();

  const send = async (email: OutgoingEmail): Promise<void> => {
    await db.kysely
      .insertInto('email_outbox')
      .values({
        to_address: email.to,
        subject: email.subject,
        text_body: email.text,
        html_body: email.html,
        kind: email.kind,
        delivery: transport ? 'smtp' : 'outbox',
      })
      .execute();
    if (transport) {
      // Delivered after the response: an SMTP round trip never slows (or reveals anything through) a request.
      setImmediate(() => {
        drain().catch((error) => log.error({ err: String(error) }, 'email outbox drain failed'));
      });
    } else {
      log.info(
        { to: email.to, subject: email.subject, link: email.link },
        `No SMTP configured: email "${email.subject}" to ${email.to} kept in the development outbox${email.link ? ` — link: ${email.link}` : ''}`,
      );
    }
  };

  const pending = new Set<Promise<void>>();
  const background = (task: () => Promise<void>) => {
    const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error) => log.error({ err: error instanceof Error ? error.message : String(error) }, 'email work failed'))
      .finally(() => pending.delete(run));
    pending.add(run);
  };
  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };

  return {
    mode,
    send,
    background,
    settled,
    async sendAccountEmail(kind, values) {
      const composed = composeAccountEmail(kind, options.translate(values.lang), values);
      await send({ to: values.to, ...composed, kind, link: values.link });
    },
    drain,
    async close() {
      if (timer) clearInterval(timer);
      await settled();
      await draining;
      transport?.close();
    },
  };
}
