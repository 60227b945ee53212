import type { Db } from '../../db/client.ts';
import type { Translate } from '../email/account-emails.ts';
import type { Mailer } from '../email/mailer.ts';
import { i18nFor } from '../i18n/i18n.ts';
import type { Lang } from '../reference/reference-data.ts';
import { builtInHelpDesk } from './built-in-help-desk.ts';
import type { HelpDesk, HelpDeskSettings } from './help-desk.ts';
import { zammadHelpDesk } from './zammad-help-desk.ts';

// Which help desk the app's services use (ADR 0021): the one place an adapter is chosen, beside
// the adapters rather than in one of them (Zammad's desk builds on the built-in one).

const desks = new WeakMap<object, HelpDesk>();

/**
 * The help desk of the app's services, made once per services object: Zammad's when the services
 * name it (HELPDESK=zammad, server/env.ts), else the built-in one. The one place an adapter is chosen.
 */
export function helpDeskOf(services: {
  db: Db;
  mailer: Mailer;
  siteUrl: string;
  helpDesk?: HelpDeskSettings;
}): HelpDesk {
  let desk = desks.get(services);
  if (!desk) {
    const deps = { ...services, translate: translatorOf };
    const settings = services.helpDesk;
    desk = settings?.kind === 'zammad' ? zammadHelpDesk(deps, settings) : builtInHelpDesk(deps);
    desks.set(services, desk);
  }
  return desk;
}

function translatorOf(lang: Lang): Translate {
  const { t } = i18nFor(lang);
  return (key, values) => (values ? t(key, values) : t(key));
}
