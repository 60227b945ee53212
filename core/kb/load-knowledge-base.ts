import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { lockForTransaction } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { LANGS, type Lang } from '../reference/reference-data.ts';
import type { KbKind } from './kb-paths.ts';
import { renderMarkdown } from './render-markdown.ts';

// The help content (ADR 0021): one Markdown file per topic and language, content/kb/{lang}/{uri}.md,
// with a front matter block. The English file holds the structure (id, kind, parent, position) and
// every language its own title, description and body; a language without the file falls back to
// English when read (spec: language 41). Loaded at start-up and by `npm run cli -- kb load`: only
// topics whose files changed are written, and topics whose files are gone are removed.

export const KB_CONTENT_DIR = new URL('../../content/kb/', import.meta.url);

export type KbFile = {
  uri: string;
  lang: Lang;
  id?: number;
  kind?: KbKind;
  parent?: number;
  position?: number;
  title: string;
  description: string;
  body: string;
};

export type KbTopicSource = {
  id: number;
  uri: string;
  kind: KbKind;
  parentId: number | null;
  position: number;
  translations: Map<Lang, KbFile>;
};

/** Splits `---\nkey: value\n---\nbody`; a file without front matter or a title is refused. */
export function parseKbFile(text: string, uri: string, lang: Lang): KbFile {
  const m = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text.replace(/\r\n/g, '\n'));
  if (!m) throw new Error(`content/kb/${lang}/${uri}.md: no front matter`);
  const fields = new Map<string, string>();
  for (const line of m[1].split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const int = (key: string) => {
    const value = fields.get(key);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`content/kb/${lang}/${uri}.md: ${key} must be a whole number`);
    return Number(value);
  };
  const kind = fields.get('kind');
  if (kind !== undefined && kind !== 'section' && kind !== 'topic' && kind !== 'page') {
    throw new Error(`content/kb/${lang}/${uri}.md: kind must be section, topic or page`);
  }
  const title = fields.get('title') ?? '';
  if (!title) throw new Error(`content/kb/${lang}/${uri}.md: no title`);
  return {
    uri,
    lang,
    id: int('id'),
    kind,
    parent: int('parent'),
    position: int('position'),
    title,
    description: fields.get('description') ?? '',
    body: m[2].trim(),
  };
}

/** Reads every content file and checks the structure: ids unique, parents exist, every topic in English. */
export async function readKbContent(dir: URL = KB_CONTENT_DIR): Promise<KbTopicSource[]> {
  const topics = new Map<string, KbTopicSource>();
  const files: KbFile[] = [];
  for (const lang of LANGS) {
    let names: string[];
    try {
      names = (await readdir(new URL(`${lang}/`, dir))).filter((f) => f.endsWith('.md')).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const uri = name.slice(0, -3);
      if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(uri))
        throw new Error(`content/kb/${lang}/${name}: name must be a-z, 0-9, -`);
      files.push(parseKbFile(await readFile(new URL(`${lang}/${name}`, dir), 'utf8'), uri, lang));
    }
  }
  for (const file of files.filter((f) => f.lang === 'en')) {
    if (file.id === undefined || file.kind === undefined) {
      throw new Error(`content/kb/en/${file.uri}.md: id and kind are required`);
    }
    topics.set(file.uri, {
      id: file.id,
      uri: file.uri,
      kind: file.kind,
      parentId: file.parent ?? null,
      position: file.position ?? 0,
      translations: new Map([['en', file]]),
    });
  }
  for (const file of files.filter((f) => f.lang !== 'en')) {
    const topic = topics.get(file.uri);
    if (!topic) throw new Error(`content/kb/${file.lang}/${file.uri}.md: no English file`);
    topic.translations.set(file.lang, file);
  }
  const ids = new Map<number, KbTopicSource>();
  for (const topic of topics.values()) {
    const seen = ids.get(topic.id);
    if (seen) throw new Error(`content/kb: id ${topic.id} is used by ${seen.uri} and ${topic.uri}`);
    ids.set(topic.id, topic);
  }
  for (const topic of topics.values()) {
    if (topic.parentId === null) continue;
    if (!ids.has(topic.parentId)) throw new Error(`content/kb/en/${topic.uri}.md: no topic has id ${topic.parentId}`);
  }
  // Parents first, so that each row's parent exists when it is written.
  const depth = (t: KbTopicSource): number =>
    t.parentId === null ? 0 : 1 + depth(ids.get(t.parentId) as KbTopicSource);
  return [...topics.values()].sort((a, b) => depth(a) - depth(b) || a.id - b.id);
}

function hashOf(topic: KbTopicSource): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([topic.kind, topic.parentId, topic.position, topic.uri]));
  for (const lang of LANGS) hash.update(JSON.stringify(topic.translations.get(lang) ?? null));
  return hash.digest('hex').slice(0, 32);
}

/** Loads content/kb into the database; returns how many topics were written and removed. */
export async function loadKnowledgeBase(
  db: Db,
  dir: URL = KB_CONTENT_DIR,
): Promise<{ written: number; removed: number; topics: number }> {
  const topics = await readKbContent(dir);
  return db.kysely.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'kb-content');
    const languages = await trx
      .selectFrom('languages')
      .select(['id', 'code'])
      .where('code', 'in', [...LANGS])
      .execute();
    const languageId = new Map(languages.map((l) => [l.code, l.id]));
    const stored = new Map(
      (await trx.selectFrom('kb_topics').select(['id', 'content_hash']).execute()).map((r) => [r.id, r.content_hash]),
    );
    let written = 0;
    for (const topic of topics) {
      const hash = hashOf(topic);
      if (stored.get(topic.id) === hash) continue;
      // A uri that moved to another id frees it first (unique uri).
      await trx.deleteFrom('kb_topics').where('uri', '=', topic.uri).where('id', '<>', topic.id).execute();
      const row = {
        id: topic.id,
        kind: topic.kind,
        parent_id: topic.parentId,
        uri: topic.uri,
        position: topic.position,
        content_hash: hash,
      };
      await trx
        .insertInto('kb_topics')
        .values(row)
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: sql`now()` }))
        .execute();
      await trx.deleteFrom('kb_topic_translations').where('topic_id', '=', topic.id).execute();
      for (const [lang, file] of topic.translations) {
        const id = languageId.get(lang);
        if (id === undefined) continue;
        const body = renderMarkdown(file.body, lang);
        await trx
          .insertInto('kb_topic_translations')
          .values({
            topic_id: topic.id,
            language_id: id,
            name: file.title,
            short_description: file.description,
            body_markdown: file.body,
            body_html: body.html,
            body_text: body.text,
          })
          .execute();
      }
      written++;
    }
    const keep = topics.map((t) => t.id);
    const removed = await trx
      .deleteFrom('kb_topics')
      .where('id', 'not in', keep.length > 0 ? keep : [-1])
      .executeTakeFirst();
    return { written, removed: Number(removed.numDeletedRows), topics: topics.length };
  });
}
