import type { Db } from '../../db/client.ts';
import type { Mailer } from '../email/mailer.ts';

/** What the account flows need: the database, the mailer, and the public URL for links in emails. */
export type AccountDeps = { db: Db; mailer: Mailer; siteUrl: string };
