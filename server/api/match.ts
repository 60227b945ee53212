import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MATCH_QUERIES_PER_CREDIT, matchCredits, productCredits } from '../../core/billing/catalogue.ts';
import { chargeCredits, recordCredits } from '../../core/billing/ledger.ts';
import {
  type DecidedCandidate,
  type DecidedResult,
  matchWithDecisions,
} from '../../core/enrichment/decided-matches.ts';
import { MAX_MATCH_QUERIES } from '../../core/limits.ts';
import {
  AUTO_MATCH_MARGIN,
  AUTO_MATCH_THRESHOLD,
  isMatchable,
  MATCH_CANDIDATES_MAX,
} from '../../core/matching/match-companies.ts';
import type { AppServices } from '../../core/services.ts';
import { requireUser } from './auth.ts';
import { tellBalance } from './balance-header.ts';
import { type ApiRoutes, badRequest, mutationRoute } from './route.ts';

// POST /api/match (ADR 0020): up to 100 companies described by name, country, numbers, website and
// address, matched at once by the matching engine (core/matching/).

const text = (max: number, description: string) => z.string().trim().max(max).optional().describe(description);

export const MatchQuerySchema = z
  .strictObject({
    id: z.string().max(200).optional().describe('Your own key for the row, returned with its result.'),
    name: text(500, 'The company’s name, as you have it (legal form, accents and word order may differ).'),
    country: text(100, 'Country or jurisdiction: ISO 3166 code (DE, DEU, US-NY) or English name.'),
    registration_number: text(100, 'Company or business registration number (spaces and punctuation are ignored).'),
    lei: text(40, 'Legal Entity Identifier (ISO 17442).'),
    vat: text(40, 'VAT or tax number, with or without its country prefix.'),
    domain: text(300, 'Website or its domain (https://www.example.com/ or example.com).'),
    address: text(1000, 'Address as one line.'),
  })
  .meta({ id: 'MatchQuery' });

const FeatureSchema = z.object({
  id: z.enum(['name', 'registration_number', 'lei', 'vat', 'country', 'domain', 'address']),
  value: z.number().describe('0–1: how well this part of the query matches.'),
  explanation: z.string(),
});

export const MatchCandidateSchema = z
  .object({
    id: z.number().int().describe('The company’s id (legal_entities id).'),
    uri: z.string().describe('The company’s profile: /companies/details/{uri}/.'),
    name: z.string(),
    country: z.string().nullable().describe('ISO 3166-1 alpha-2 code of its jurisdiction.'),
    score: z.number().describe('0–1.'),
    match: z.boolean().describe('The match of the query: automatic, or the one you chose (`decided`).'),
    decided: z
      .boolean()
      .describe('You chose this company for the same input in an enrichment’s review (it comes first).'),
    features: z.array(FeatureSchema).describe('Each part of the query compared, with what came out.'),
  })
  .meta({ id: 'MatchCandidate' });

/** A candidate as the API answers it: the features' English words, not the data behind them (ADR 0032). */
function answered(c: DecidedCandidate) {
  return { ...c, features: c.features.map(({ id, value, explanation }) => ({ id, value, explanation })) };
}

export function registerMatchRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/match',
      operationId: 'matchCompanies',
      summary: 'Match companies you describe to Registra’s',
      description:
        `Up to ${MAX_MATCH_QUERIES} queries at once; each needs a name, registration number, LEI, VAT number or domain. ` +
        'Each answers its candidates, best first, with a score 0–1 and an explanation per feature (name after ' +
        'legal-form, diacritic and abbreviation normalisation, numbers compared without spaces, country, website, ' +
        `address words). A candidate scoring at least ${AUTO_MATCH_THRESHOLD} and ${AUTO_MATCH_MARGIN} above the next ` +
        'is the automatic `match`; otherwise `match` is null and the candidates are for review. ' +
        'Your own review decisions in enrichments count for the same input (name as normalised, country, numbers ' +
        'and website, the address aside): the company you chose comes first as the `match` with `decided: true` ' +
        '(`decision: "chosen"`); after "none of these" there is no match and the candidates you rejected are left ' +
        'out (`decision: "none"`). Other users’ decisions never count. ' +
        'The `Registra-Balance` header gives the balance after the charge.',
      tags: ['Data'],
      // Spends the caller's credits: a signed-in user or a key (ADR 0020).
      auth: true,
      scope: 'read',
      cost: {
        credits: productCredits('api-match'),
        per: `${MATCH_QUERIES_PER_CREDIT} queries (at least 1 credit a call)`,
      },
      errors: [401, 402, 403],
      body: z.strictObject({
        queries: z
          .array(MatchQuerySchema)
          .min(1, { error: 'queries: give at least one query' })
          .max(MAX_MATCH_QUERIES, { error: `queries: at most ${MAX_MATCH_QUERIES} at once` }),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MATCH_CANDIDATES_MAX)
          .default(5)
          .describe(`Candidates per query (default 5, at most ${MATCH_CANDIDATES_MAX}).`),
      }),
      response: z.object({
        results: z.array(
          z.object({
            id: z.string().nullable().describe('The query’s own id, when it had one.'),
            match: MatchCandidateSchema.nullable(),
            candidates: z.array(MatchCandidateSchema),
            decision: z
              .enum(['chosen', 'none'])
              .nullable()
              .describe(
                'Your review decision on this input in an enrichment: a company chosen, none of the candidates, or null.',
              ),
          }),
        ),
        meta: z.object({
          count: z.number().int(),
          threshold: z.number().describe('The score an automatic match needs.'),
          margin: z.number().describe('…and its lead over the next candidate.'),
          credits_spent: z.number().int().describe('Credits this call spent.'),
          balance: z.number().int().describe('The caller’s balance after it.'),
        }),
      }),
    },
    async ({ body }, { request, reply }) => {
      const empty = body.queries.findIndex((q) => !isMatchable(q));
      if (empty !== -1) {
        throw badRequest([
          {
            parameter: `queries.${empty}`,
            message: `queries.${empty}: give a name, registration_number, lei, vat or domain`,
          },
        ]);
      }
      const { user } = await requireUser(request, 'read');
      const credits = matchCredits(body.queries.length);
      const note = `match: ${body.queries.length} queries`;
      // Charged once, before the work; a call that then fails gives its credits back (ADR 0020).
      const balance = await chargeCredits(services.db, user.id, credits, 'api', note);
      tellBalance(reply, balance);
      let results: DecidedResult[];
      try {
        results = await matchWithDecisions(services.db, services.reference, user.id, body.queries, {
          limit: body.limit,
        });
      } catch (error) {
        await services.db.kysely
          .transaction()
          .execute((tx) => recordCredits(tx, user.id, credits, 'api_refund', { note: `${note}: failed, given back` }));
        throw error;
      }
      return {
        results: results.map((r, i) => ({
          id: body.queries[i].id ?? null,
          match: r.match && answered(r.match),
          candidates: r.candidates.map(answered),
          decision: r.decision,
        })),
        meta: {
          count: results.length,
          threshold: AUTO_MATCH_THRESHOLD,
          margin: AUTO_MATCH_MARGIN,
          credits_spent: credits,
          balance,
        },
      };
    },
  );
}
