import { comparisonFileName, writeComparisonPdf } from '../../../core/comparison/comparison-pdf.ts';
import { i18nFor, localePath } from '../../../core/i18n/i18n.ts';
import { comparisonDocument, loadComparisonView, readComparison } from '../../presenters/comparison.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import { authContext, servicesContext } from '../../services.ts';
import type { Route } from './+types/pdf';

// GET /companies/comparison/pdf/: the comparison as a PDF download (spec §1, §7 "Comparison export
// headers"). Export is a gated action (spec §5): a guest gets 401 whatever the page showed.

function plain(text: string, status: number, setCookies: string[] = []): Response {
  const headers = new Headers({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  for (const cookie of setCookies) headers.append('set-cookie', cookie);
  return new Response(text, { status, headers });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langOf(params);
  const { t } = i18nFor(lang);
  const services = context.get(servicesContext);
  if (!context.get(authContext)) {
    const signIn = `${localePath(lang, '/account/login/')}?returnTo=${encodeURIComponent(localePath(lang, '/companies/comparison/'))}`;
    return plain(`${t('comparison.pdf.signIn')}\n${services.siteUrl}${signIn}\n`, 401);
  }
  const state = await readComparison(context, request);
  if (state.ids.length === 0) return plain(t('comparison.pdf.empty'), 409, state.setCookies);
  const view = await loadComparisonView(services, lang, state.ids);
  const now = new Date();
  const pdf = await writeComparisonPdf(comparisonDocument(view, lang, services, now), { now });
  const headers = new Headers({
    'content-type': 'application/pdf',
    'content-disposition': `attachment; filename="${comparisonFileName(now)}"`,
    'content-length': String(pdf.length),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
  for (const cookie of state.setCookies) headers.append('set-cookie', cookie);
  return new Response(new Uint8Array(pdf), { status: 200, headers });
}
