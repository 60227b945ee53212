import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { isLang, localePath } from '../../core/i18n/i18n.ts';
import { Notice, UserDataNav } from './user-data.tsx';

// The frame of the settings pages (spec §2 "Dashboard": /dashboard/settings/{profile, security,
// interface, notifications, contacts}/): the user's navigation, the settings tabs, a title and
// the confirmation of what was just saved.

export const SETTINGS_PAGES = ['profile', 'security', 'interface', 'notifications', 'contacts', 'api'] as const;
export type SettingsPageId = (typeof SETTINGS_PAGES)[number];

export function settingsPath(page: SettingsPageId): string {
  return `/dashboard/settings/${page}/`;
}

export function SettingsPage({
  page,
  notice,
  children,
}: {
  page: SettingsPageId;
  notice?: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { lang } = useParams();
  const location = useLocation();
  const language = isLang(lang) ? lang : 'en';
  return (
    <div className="user-data-page settings-page">
      <UserDataNav />
      <nav className="settings-nav" aria-label={t('settings.navigation')}>
        <ul>
          {SETTINGS_PAGES.map((id) => {
            const href = localePath(language, settingsPath(id));
            return (
              <li key={id}>
                <a href={href} aria-current={location.pathname === href ? 'page' : undefined}>
                  {t(`settings.${id}.title`)}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <h1>
        {t('settings.title')}: {t(`settings.${page}.title`)}
      </h1>
      {notice ? <Notice>{notice}</Notice> : null}
      {children}
    </div>
  );
}
