import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { escapeXml } from '../export/writers.ts';
import { localePath } from '../i18n/i18n.ts';
import { kbPath } from '../kb/kb-paths.ts';
import { personPath } from '../people/person-path.ts';
import { LANGS, type Lang, type Reference } from '../reference/reference-data.ts';
import { visibleCompany, visibleMember } from '../takedowns/visible.ts';

// Sitemaps for search engines (ADR 0021): per language an index (/sitemaps/{lang}.xml) of one
// sitemap of the site's own pages (home, directories, help) and of company sitemaps, each at most
// 50,000 profiles: the companies whose ids fall in one block of 50,000 ids, so a file's content is
// found by the primary key and never moves when companies are added. A company sitemap is streamed
// in keyset batches (nothing is held in memory); `lastmod` is the company's last recorded change
// (company_changes). Person pages (members, /members/details/{name}/{id}/) have sitemaps of their
// own in the same blocks of their ids, without lastmod. Companies and people taken down are left out.

/** The protocol's limit of URLs in one sitemap. */
export const SITEMAP_URLS_MAX = 50_000;
const BATCH = 5_000;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const day = (at: Date) => at.toISOString().slice(0, 10);

function urlEntry(loc: string, lastmod?: Date | null): string {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${day(lastmod)}</lastmod>` : ''}</url>\n`;
}

export function robotsTxt(siteUrl: string): string {
  return [
    '# Registra: pages are for readers and search engines (pages that should not be indexed say so',
    '# in their robots meta tag, so they are not blocked here); the JSON API is for programs.',
    'User-agent: *',
    'Disallow: /api/',
    '',
    ...LANGS.map((lang) => `Sitemap: ${siteUrl}/sitemaps/${lang}.xml`),
    '',
  ].join('\n');
}

/** What a block sitemap lists: company profiles or person pages, each from its own table. */
export type SitemapKind = 'companies' | 'people';
const TABLE: Record<SitemapKind, 'legal_entities' | 'members'> = { companies: 'legal_entities', people: 'members' };

/**
 * The blocks of 50,000 ids that hold at least one visible company (or person), found by one index
 * probe per block (a loose index scan on the primary key), not by reading every row.
 */
export async function sitemapBlocks(db: Db, kind: SitemapKind): Promise<number[]> {
  const table = sql.table(TABLE[kind]);
  const visible = kind === 'companies' ? visibleCompany() : visibleMember();
  const result = await sql<{ block: number }>`
    with recursive blocks (block) as (
      select (select (min(id) - 1) / ${SITEMAP_URLS_MAX} from ${table} where ${visible})
      union all
      select (
        select (min(id) - 1) / ${SITEMAP_URLS_MAX} from ${table}
        where id > (block + 1) * ${SITEMAP_URLS_MAX} and ${visible}
      )
      from blocks where block is not null
    )
    select block from blocks where block is not null`.execute(db.kysely);
  return result.rows.map((r) => Number(r.block) + 1);
}

/** The sitemap index of a language: its pages' sitemap, then one sitemap per block of companies and of people. */
export async function sitemapIndex(db: Db, siteUrl: string, lang: Lang): Promise<string> {
  const blocks = await sitemapBlocks(db, 'companies');
  const people = await sitemapBlocks(db, 'people');
  const entry = (path: string) => `<sitemap><loc>${escapeXml(`${siteUrl}${path}`)}</loc></sitemap>\n`;
  return [
    XML_HEAD,
    `<sitemapindex xmlns="${NS}">\n`,
    entry(`/sitemaps/${lang}/pages.xml`),
    ...blocks.map((n) => entry(`/sitemaps/${lang}/companies-${n}.xml`)),
    ...people.map((n) => entry(`/sitemaps/${lang}/people-${n}.xml`)),
    '</sitemapindex>\n',
  ].join('');
}

/** The site's own pages in a language: home, directories (every industry), jurisdictions' searches, help. */
export async function pagesSitemap(db: Db, reference: Reference, siteUrl: string, lang: Lang): Promise<string> {
  const url = (path: string, lastmod?: Date) => urlEntry(`${siteUrl}${localePath(lang, path)}`, lastmod);
  const help = await db.kysely
    .selectFrom('kb_topics')
    .select(['id', 'kind', 'uri', 'updated_at'])
    .orderBy('id')
    .execute();
  const parts = [
    XML_HEAD,
    `<urlset xmlns="${NS}">\n`,
    url('/'),
    url('/companies/search/'),
    url('/companies/directories/jurisdictions/'),
    url('/companies/directories/industries/'),
    url('/info/'),
    url('/info/contact-us/'),
    ...help.map((topic) => url(kbPath(topic), topic.updated_at)),
    ...reference.industries.items
      .filter((i) => i.children.length > 0)
      .map((i) => url(`/companies/directories/industries/f/${i.uri}-${i.id}/`)),
    ...reference.locations.items
      .filter((l) => l.location_type_id === 1)
      .map((l) => url(`/companies/search/f/jurisdiction-${l.uri}-${l.id}/`)),
    '</urlset>\n',
  ];
  return parts.join('');
}

/**
 * The profiles of one block of 50,000 ids, as XML text in pieces: read 5,000 at a time by keyset
 * on the id, each with the time of its newest change, so memory stays flat whatever the size.
 * A block without visible companies yields nothing at all (the head comes with the first rows):
 * the server answers it 404, since the sitemap schema wants at least one <url> in a urlset.
 */
export async function* companySitemap(db: Db, siteUrl: string, lang: Lang, block: number): AsyncGenerator<string> {
  const first = (block - 1) * SITEMAP_URLS_MAX;
  const last = block * SITEMAP_URLS_MAX;
  const prefix = `${siteUrl}${localePath(lang, '/companies/details/')}`;
  let after = first;
  for (;;) {
    const rows = await db.kysely
      .selectFrom('legal_entities as le')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('company_changes as c')
            .select('c.observed_at')
            .whereRef('c.legal_entity_id', '=', 'le.id')
            .orderBy('c.id', 'desc')
            .limit(1)
            .as('ch'),
        (join) => join.onTrue(),
      )
      .select(['le.id', 'le.uri', 'ch.observed_at'])
      .where('le.id', '>', after)
      .where('le.id', '<=', last)
      .where(visibleCompany('le'))
      .orderBy('le.id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    let chunk = after === first ? `${XML_HEAD}<urlset xmlns="${NS}">\n` : '';
    for (const row of rows) chunk += urlEntry(`${prefix}${encodeURIComponent(row.uri)}/`, row.observed_at);
    yield chunk;
    after = Number(rows[rows.length - 1].id);
    if (rows.length < BATCH) break;
  }
  if (after !== first) yield '</urlset>\n';
}

/** The person pages of one block of 50,000 member ids, streamed as companySitemap is (nothing when none). */
export async function* peopleSitemap(db: Db, siteUrl: string, lang: Lang, block: number): AsyncGenerator<string> {
  const first = (block - 1) * SITEMAP_URLS_MAX;
  const last = block * SITEMAP_URLS_MAX;
  let after = first;
  for (;;) {
    const rows = await db.kysely
      .selectFrom('members')
      .select(['id', 'name'])
      .where('id', '>', after)
      .where('id', '<=', last)
      .where(visibleMember())
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    let chunk = after === first ? `${XML_HEAD}<urlset xmlns="${NS}">\n` : '';
    for (const row of rows) chunk += urlEntry(`${siteUrl}${localePath(lang, personPath(row.name, Number(row.id)))}`);
    yield chunk;
    after = Number(rows[rows.length - 1].id);
    if (rows.length < BATCH) break;
  }
  if (after !== first) yield '</urlset>\n';
}
