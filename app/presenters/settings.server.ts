import { redirect } from 'react-router';
import { localePath } from '../../core/i18n/i18n.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import type { SettingsPageId } from '../components/settings.tsx';
import { settingsPath } from '../components/settings.tsx';
import { accountPageHeaders } from './account-forms.server.ts';

// What the settings pages share: they are personal (never cached), and a successful form goes back
// to its page with what was done (`?done=…`, and a count where the message needs one).

export const settingsHeaders = accountPageHeaders;

export function settingsDone(lang: Lang, page: SettingsPageId, done: string, count?: number) {
  const query = new URLSearchParams({ done });
  if (count !== undefined) query.set('count', String(count));
  return redirect(`${localePath(lang, settingsPath(page))}?${query}`);
}

/** The `done` of the page's address and its count, for the confirmation line. */
export function doneOf(request: Request): { done: string | null; count: number } {
  const url = new URL(request.url);
  return { done: url.searchParams.get('done'), count: Number(url.searchParams.get('count') ?? '0') || 0 };
}
