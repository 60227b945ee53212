import { redirect } from 'react-router';
import { enrichmentAction } from '../../presenters/enrichment.server.ts';
import { langOf } from '../../presenters/user-data.server.ts';
import type { Route } from './+types/review';

// POST /companies/enrichment/{id}/review/: a review decision or "accept all at or above N %" sent
// by the page's island (app/islands/enrichment-review.js, ADR 0032), the page's own form fields and
// CSRF token, answered as JSON — the rows' new state and the counts — so that the page stays as it is.

export async function action({ request, params, context }: Route.ActionArgs) {
  return enrichmentAction(context, request, langOf(params), params.id, { json: true });
}

/** A GET (a link, a reload) goes to the review page itself. */
export function loader({ request }: Route.LoaderArgs) {
  return redirect(new URL('../', request.url).pathname);
}
