import { enrichedDownload } from '../../presenters/enrichment.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/download';

// GET /companies/enrichment/{id}/download/?format=…&sections=…: the enriched file (ADR 0020
// "Enrichment"), for its owner only (another user's is a 404); a guest gets 401.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return enrichedDownload(context, request, langOf(params), params.id);
}
