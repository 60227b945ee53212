import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';
import type { Database } from '../../db/schema.ts';
import type { Lang } from '../reference/reference-data.ts';
import type { KbKind } from './kb-paths.ts';

// Reading the help (ADR 0021): sections, topics with their child topics, and info pages, each in
// the reader's language, falling back to the language-41 (English) translation, then to the uri.

export type KbTopicSummary = {
  id: number;
  kind: KbKind;
  parent_id: number | null;
  uri: string;
  position: number;
  name: string;
  short_description: string;
  updated_at: Date;
};

export type KbTranslation = { language_id: number; lang: string; name: string; short_description: string };

export type KbTopic = KbTopicSummary & {
  body_html: string;
  /** The language the body is in (the reader's, or English when it has none). */
  body_lang: string;
  translations: KbTranslation[];
  children: KbTopicSummary[];
  parent: KbTopicSummary | null;
};

const languageIdOf = (lang: Lang) => sql<number>`(select id from languages where code = ${lang})`;

function summaries(db: Db, lang: Lang) {
  return db.kysely
    .selectFrom('kb_topics as t')
    .leftJoin('kb_topic_translations as e', (join) =>
      join.onRef('e.topic_id', '=', 't.id').on('e.language_id', '=', LANGUAGE_EN),
    )
    .leftJoin('kb_topic_translations as l', (join) =>
      join.onRef('l.topic_id', '=', 't.id').on('l.language_id', '=', languageIdOf(lang)),
    )
    .select([
      't.id',
      't.kind',
      't.parent_id',
      't.uri',
      't.position',
      't.updated_at',
      sql<string>`coalesce(l.name, e.name, t.uri)`.as('name'),
      sql<string>`coalesce(l.short_description, e.short_description, '')`.as('short_description'),
    ]);
}

type Eb = ExpressionBuilder<
  Database & { t: Database['kb_topics']; e: Database['kb_topic_translations']; l: Database['kb_topic_translations'] },
  't' | 'e' | 'l'
>;

/**
 * The words of a help search as a prefix query (`monitor` finds "monitoring"), or null when it has
 * no word. Only letters and digits reach the query: the rest of the text separates words.
 */
export function kbSearchQuery(q: string): string | null {
  const words = (
    q
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, 10);
  return words.length > 0 ? words.map((w) => `${w}:*`).join(' & ') : null;
}

export type KbListQuery = { parentId?: number | null; kind?: KbKind; q?: string };

/** Topics in `lang`: children of a parent, of a kind, or matching a search (best first). */
export async function listKbTopics(db: Db, lang: Lang, query: KbListQuery = {}): Promise<KbTopicSummary[]> {
  let select = summaries(db, lang);
  if (query.parentId !== undefined) {
    select =
      query.parentId === null
        ? select.where('t.parent_id', 'is', null)
        : select.where('t.parent_id', '=', query.parentId);
  }
  if (query.kind) select = select.where('t.kind', '=', query.kind);
  const tsquery = query.q === undefined ? null : kbSearchQuery(query.q);
  if (query.q !== undefined) {
    if (!tsquery) return [];
    const matches = (eb: Eb) =>
      eb.or([
        sql<boolean>`l.search @@ to_tsquery('simple', ${tsquery})`,
        eb.and([eb('l.topic_id', 'is', null), sql<boolean>`e.search @@ to_tsquery('simple', ${tsquery})`]),
      ]);
    return select
      .where(matches)
      .orderBy(sql`ts_rank(coalesce(l.search, e.search), to_tsquery('simple', ${tsquery}))`, 'desc')
      .orderBy('t.id')
      .limit(50)
      .execute();
  }
  return select.orderBy('t.position').orderBy('t.id').execute();
}

/** One topic in `lang`, with its body, translations, parent and children; null when there is none. */
export async function getKbTopic(db: Db, id: number, lang: Lang): Promise<KbTopic | null> {
  const topic = await summaries(db, lang)
    .leftJoin('languages as bl', (join) => join.on(sql<boolean>`bl.id = coalesce(l.language_id, e.language_id)`))
    .select([
      sql<string>`coalesce(l.body_html, e.body_html, '')`.as('body_html'),
      sql<string>`coalesce(bl.code, 'en')`.as('body_lang'),
    ])
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!topic) return null;
  // An English body read in another language: its site links get the reader's prefix too.
  const body_html =
    topic.body_lang === lang || lang === 'en'
      ? topic.body_html
      : topic.body_html.replace(/ href="\/(?!\/)/g, ` href="/${lang}/`);
  const [translations, children, parent] = await Promise.all([
    db.kysely
      .selectFrom('kb_topic_translations as tr')
      .innerJoin('languages as lg', 'lg.id', 'tr.language_id')
      .select(['tr.language_id', 'lg.code as lang', 'tr.name', 'tr.short_description'])
      .where('tr.topic_id', '=', id)
      .orderBy('tr.language_id')
      .execute(),
    listKbTopics(db, lang, { parentId: id }),
    topic.parent_id === null
      ? Promise.resolve(undefined)
      : summaries(db, lang).where('t.id', '=', topic.parent_id).executeTakeFirst(),
  ]);
  return { ...topic, body_html, translations, children, parent: parent ?? null };
}
