import type { Db } from '../../db/client.ts';
import { type MatchCandidate, type MatchQuery, type MatchResult, matchCompanies } from '../matching/match-companies.ts';
import type { Reference } from '../reference/reference-data.ts';
import { visibleCompanyIds } from '../takedowns/visible.ts';
import { inputKey, rememberedDecisions } from './enrichments.ts';

// The match API with the caller's own review decisions (ADR 0032): a query whose input (inputKey:
// the normalised name, country code, compact numbers and website host, as the enrichment keeps it)
// the same user decided on in an enrichment's review answers that decision — the company chosen
// first, `decided: true`, and the match; or, for "none of these", no match and the candidates
// rejected left out. Other users' decisions are never read.

export type DecidedCandidate = MatchCandidate & { decided: boolean };
export type DecidedResult = {
  candidates: DecidedCandidate[];
  match: DecidedCandidate | null;
  /** The caller's decision on this input: a company chosen, "none" of the candidates, or null (none made). */
  decision: 'chosen' | 'none' | null;
};

/** matchCompanies, then each query's remembered decision of this user applied. */
export async function matchWithDecisions(
  db: Db,
  reference: Reference,
  userId: number,
  queries: MatchQuery[],
  options: { limit?: number } = {},
): Promise<DecidedResult[]> {
  const keys = queries.map(inputKey);
  const decisions = await rememberedDecisions(db, userId, keys);
  const chosenIds = [...decisions.values()].flatMap((d) => (d.companyId === null ? [] : [d.companyId]));
  // A company taken down since the decision is no answer (ADR 0021).
  const visible = new Set(await visibleCompanyIds(db, chosenIds));
  const include = keys.map((key) => {
    const chosen = decisions.get(key)?.companyId;
    return chosen != null && visible.has(chosen) ? [chosen] : [];
  });
  const results = await matchCompanies(db, reference, queries, { ...options, include });
  return results.map((result, i) => applyDecision(result, decisions.get(keys[i]), include[i][0]));
}

function applyDecision(
  result: MatchResult,
  decision: { companyId: number | null; rejected: number[] } | undefined,
  chosen: number | undefined,
): DecidedResult {
  const mark = (c: MatchCandidate, decided = false): DecidedCandidate => ({ ...c, decided });
  if (decision && decision.companyId === null) {
    const rejected = new Set(decision.rejected);
    const candidates = result.candidates.filter((c) => !rejected.has(c.id)).map((c) => mark({ ...c, match: false }));
    return { candidates, match: null, decision: 'none' };
  }
  const picked = chosen === undefined ? undefined : result.candidates.find((c) => c.id === chosen);
  if (!picked) {
    const candidates = result.candidates.map((c) => mark(c));
    return { candidates, match: candidates.find((c) => c.match) ?? null, decision: null };
  }
  const first = mark({ ...picked, match: true }, true);
  const rest = result.candidates.filter((c) => c.id !== chosen).map((c) => mark({ ...c, match: false }));
  return { candidates: [first, ...rest], match: first, decision: 'chosen' };
}
