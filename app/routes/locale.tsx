import { data, Outlet } from 'react-router';
import { isLang } from '../../core/i18n/i18n.ts';
import type { Route } from './+types/locale';

/** The language prefix: none (English), /de or /fr. Anything else is not a page. */
export function loader({ params }: Route.LoaderArgs) {
  if (params.lang !== undefined && (!isLang(params.lang) || params.lang === 'en')) {
    throw data({ message: 'not found' }, { status: 404 });
  }
  return null;
}

export default function Locale() {
  return <Outlet />;
}
