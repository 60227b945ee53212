import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { localePath } from '../../core/i18n/i18n.ts';
import { SUGGEST_QUERY_MAX, suggest } from '../../core/search/suggest.ts';
import type { AppServices } from '../../core/services.ts';
import { type ApiRoutes, getRoute, langParam, languageIdOf } from './route.ts';

// Suggestions while typing in a search box (ADR 0022), read by app/islands/suggest.js.

const SuggestionSchema = z.object({
  label: z.string(),
  url: z.string().describe('The page of the suggestion, in the requested language.'),
  detail: z
    .string()
    .optional()
    .describe(
      'A company’s jurisdiction, and the identifier it was found by (“Norway · 923609016”). A person’s main company, country, role and month and year of birth, where known ' +
        '(“! LTD · United Kingdom · Shareholder · born Dec 1961”); two people whose lines would read the same also ' +
        'carry their number (“No. 123”), so that no two people are shown as one.',
    ),
});
const SuggestResponse = z.object({
  data: z.object({
    companies: z.array(SuggestionSchema),
    people: z.array(SuggestionSchema),
    jurisdictions: z.array(SuggestionSchema),
    industries: z.array(SuggestionSchema),
  }),
});

export function registerSuggestRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  getRoute(
    api,
    routes,
    {
      url: '/suggest',
      operationId: 'getSuggestions',
      summary: 'Suggestions while typing',
      description:
        'Companies and people whose name starts with `q` (up to 5 each; first the companies holding `q` when it reads as an identifier, such as a company number, LEI or VAT number), and the jurisdictions and industries whose name holds it.',
      tags: ['Data'],
      query: z.strictObject({
        q: z
          .string({ error: 'q is required' })
          .max(SUGGEST_QUERY_MAX, { error: `q must be at most ${SUGGEST_QUERY_MAX} characters` })
          .describe('What was typed so far.'),
        lang: langParam,
      }),
      response: SuggestResponse,
    },
    async ({ q, lang }) => {
      const found = await suggest(services.db, services.reference, languageIdOf(services.reference, lang), q);
      const withUrls = (list: { label: string; path: string; detail?: string }[]) =>
        list.map(({ path, ...s }) => ({ ...s, url: localePath(lang, path) }));
      return {
        data: {
          companies: withUrls(found.companies),
          people: withUrls(found.people),
          jurisdictions: withUrls(found.jurisdictions),
          industries: withUrls(found.industries),
        },
      };
    },
  );
}
