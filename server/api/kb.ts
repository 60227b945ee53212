import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../core/errors/app-error.ts';
import { kbPath } from '../../core/kb/kb-paths.ts';
import { getKbTopic, type KbTopicSummary, listKbTopics } from '../../core/kb/kb-topics.ts';
import type { AppServices } from '../../core/services.ts';
import { type ApiRoutes, getRoute, intParam, langParam, listMeta } from './route.ts';

// The knowledge base (spec §7 "Support and knowledge base"): GET /public/kb_topics and one by id.
// Content and loading: core/kb, ADR 0021.

const TAGS = ['Help and support'];

const KbTopicSummarySchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(['section', 'topic', 'page']),
    parent_id: z.number().int().nullable(),
    uri: z.string(),
    name: z.string().describe('In `lang`, falling back to English (language 41), then to the uri.'),
    short_description: z.string(),
    path: z.string().describe('The page of the topic on the site, in `lang`.'),
    updated_at: z.string(),
  })
  .meta({ id: 'KbTopicSummary' });

const KbTopicSchema = KbTopicSummarySchema.extend({
  body_html: z.string().describe('The body as sanitised HTML (prose tags only).'),
  body_language: z.string().describe('The language of the body: `lang`, or en when it has no translation.'),
  translations: z.array(
    z.object({
      language_id: z.number().int(),
      language: z.string(),
      name: z.string(),
      short_description: z.string(),
    }),
  ),
  child_topics: z.array(KbTopicSummarySchema),
}).meta({ id: 'KbTopic' });

export function registerKbRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;
  const summary = (lang: 'en' | 'de' | 'fr') => (t: KbTopicSummary) => ({
    id: t.id,
    kind: t.kind,
    parent_id: t.parent_id,
    uri: t.uri,
    name: t.name,
    short_description: t.short_description,
    path: lang === 'en' ? kbPath(t) : `/${lang}${kbPath(t)}`,
    updated_at: t.updated_at.toISOString(),
  });

  getRoute(
    api,
    routes,
    {
      url: '/public/kb_topics',
      operationId: 'listKbTopics',
      summary: 'Help topics',
      description:
        'Sections, topics and info pages of the help, in position order; `parent_id` gives the child topics of one, `kind` one kind, `q` searches names, descriptions and bodies (words as prefixes, best first, at most 50).',
      tags: TAGS,
      query: z.strictObject({
        lang: langParam,
        parent_id: intParam('parent_id').optional(),
        kind: z.enum(['section', 'topic', 'page']).optional(),
        q: z.string().max(200, { error: 'q must be at most 200 characters' }).optional(),
      }),
      response: listMeta.extend({ data: z.array(KbTopicSummarySchema) }),
    },
    async ({ lang, parent_id, kind, q }) => {
      const topics = await listKbTopics(db, lang, { parentId: parent_id, kind, q });
      return { count: topics.length, data: topics.map(summary(lang)) };
    },
  );

  getRoute(
    api,
    routes,
    {
      url: '/public/kb_topics/:id',
      operationId: 'getKbTopic',
      summary: 'One help topic',
      description: 'With its body (sanitised HTML), its translations and its child topics.',
      tags: TAGS,
      params: z.strictObject({ id: intParam('id') }),
      query: z.strictObject({ lang: langParam }),
      response: z.object({ kb_topic: KbTopicSchema }),
      errors: [404],
    },
    async ({ lang }, { path }) => {
      const topic = await getKbTopic(db, path.id, lang);
      if (!topic) throw new AppError('not_found', `No help topic has id ${path.id}`);
      return {
        kb_topic: {
          ...summary(lang)(topic),
          body_html: topic.body_html,
          body_language: topic.body_lang,
          translations: topic.translations.map((t) => ({
            language_id: t.language_id,
            language: t.lang,
            name: t.name,
            short_description: t.short_description,
          })),
          child_topics: topic.children.map(summary(lang)),
        },
      };
    },
  );
}
