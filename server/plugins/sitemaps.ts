import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { isLang } from '../../core/i18n/i18n.ts';
import type { AppServices } from '../../core/services.ts';
import { companySitemap, pagesSitemap, peopleSitemap, robotsTxt, sitemapIndex } from '../../core/sitemaps/sitemaps.ts';

// /robots.txt (pointing at the sitemaps), /sitemaps/{lang}.xml (a language's index),
// /sitemaps/{lang}/pages.xml, /sitemaps/{lang}/companies-{n}.xml and /sitemaps/{lang}/people-{n}.xml (ADR 0021).

const CACHE = 'public, max-age=3600';
const XML = 'application/xml; charset=utf-8';

async function* withFirst(first: string, rest: AsyncGenerator<string>): AsyncGenerator<string> {
  yield first;
  yield* rest;
}

export function registerSitemaps(app: FastifyInstance, services: AppServices): void {
  const { db, reference, siteUrl } = services;
  const notFound = (reply: import('fastify').FastifyReply) => reply.callNotFound();

  app.get('/robots.txt', async (_request, reply) => {
    reply.header('cache-control', CACHE).type('text/plain; charset=utf-8');
    return robotsTxt(siteUrl);
  });

  app.get<{ Params: { file: string } }>('/sitemaps/:file', async (request, reply) => {
    const lang = /^([a-z]{2})\.xml$/.exec(request.params.file)?.[1];
    if (!isLang(lang)) return notFound(reply);
    reply.header('cache-control', CACHE).type(XML);
    return sitemapIndex(db, siteUrl, lang);
  });

  app.get<{ Params: { lang: string; file: string } }>('/sitemaps/:lang/:file', async (request, reply) => {
    const { lang, file } = request.params;
    if (!isLang(lang)) return notFound(reply);
    if (file === 'pages.xml') {
      reply.header('cache-control', CACHE).type(XML);
      return pagesSitemap(db, reference, siteUrl, lang);
    }
    const [, kind, block] = /^(companies|people)-(\d{1,7})\.xml$/.exec(file) ?? [];
    if (!block || Number(block) < 1) return notFound(reply);
    const pieces = (kind === 'people' ? peopleSitemap : companySitemap)(db, siteUrl, lang, Number(block));
    // A block past the last (or with nothing visible left) is a 404: an empty urlset fails the
    // sitemap schema. The first piece comes with the first rows, so this costs no extra query.
    const head = await pieces.next();
    if (head.done) return notFound(reply);
    reply.header('cache-control', CACHE).type(XML);
    return reply.send(Readable.from(withFirst(head.value, pieces)));
  });
}
