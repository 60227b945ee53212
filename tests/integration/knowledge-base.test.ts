import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KB_LINKS, kbPath } from '../../core/kb/kb-paths.ts';
import { loadKnowledgeBase } from '../../core/kb/load-knowledge-base.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

// The help (ADR 0021): content/kb loaded into the database, its pages in three languages, the
// footer's links, the search within the help, the API, and bodies sanitised whatever the Markdown says.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const titleOf = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] ?? '';

describe('footer', () => {
  it('links every page to help, contact, pricing, data sources, the legal pages and the languages', async () => {
    for (const url of ['/', '/de/companies/search/', '/fr/no-such-page/']) {
      const html = (await get(url)).body;
      const footer = /<footer class="site-footer">([\s\S]*?)<\/footer>/.exec(html)?.[1] ?? '';
      const prefix = url.startsWith('/de') ? '/de' : url.startsWith('/fr') ? '/fr' : '';
      for (const path of [
        '/info/',
        '/info/contact-us/',
        '/info/pricing/',
        kbPath(KB_LINKS.dataSources),
        kbPath(KB_LINKS.terms),
        kbPath(KB_LINKS.privacy),
        kbPath(KB_LINKS.cookies),
      ]) {
        expect(footer, `${url} → ${path}`).toContain(`href="${prefix}${path}"`);
      }
      expect(footer).toContain('hrefLang="de"');
    }
  });

  it('leads to pages that exist, in each language', async () => {
    const titles = { en: 'Privacy policy', de: 'Datenschutzerklärung', fr: 'Politique de confidentialité' };
    for (const [lang, title] of Object.entries(titles)) {
      const prefix = lang === 'en' ? '' : `/${lang}`;
      const res = await get(`${prefix}${kbPath(KB_LINKS.privacy)}`);
      expect(res.statusCode).toBe(200);
      expect(titleOf(res.body)).toBe(title);
    }
    for (const link of Object.values(KB_LINKS)) expect((await get(kbPath(link))).statusCode).toBe(200);
  });
});

describe('help pages', () => {
  it('/info/ lists the sections with their topics and the legal pages', async () => {
    const res = await get('/de/info/');
    expect(res.statusCode).toBe(200);
    expect(titleOf(res.body)).toBe('Hilfe');
    expect(res.body).toContain('href="/de/info/sections/1-using-registra/"');
    expect(res.body).toContain('href="/de/info/topics/13-monitoring/"');
    expect(res.body).toContain('Überwachung');
    expect(res.body).toContain('href="/de/info/pages/terms-of-service-100/"');
  });

  it('a topic shows its sanitised body, its child topics and the way back to its section', async () => {
    const res = await get('/info/topics/11-searching-and-filters/');
    expect(res.statusCode).toBe(200);
    expect(titleOf(res.body)).toBe('Searching and filters');
    expect(res.body).toContain('<h2>Filters</h2>');
    // A child topic, and the parent section in the breadcrumb.
    expect(res.body).toContain('href="/info/topics/16-advanced-search/"');
    expect(res.body).toContain('href="/info/sections/1-using-registra/"');
  });

  it('links inside the content keep the reader’s language', async () => {
    const res = await get('/fr/info/topics/10-getting-started/');
    expect(res.body).toContain('href="/fr/info/topics/12-company-lists/"');
    expect(res.body).toContain('Premiers pas');
  });

  it('redirects an outdated slug, and refuses an unknown id or a topic asked for as another kind', async () => {
    const moved = await get('/de/info/topics/11-old-name/?x=1');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/de/info/topics/11-searching-and-filters/?x=1');
    expect((await get('/info/pages/privacy-101/')).headers.location).toBe('/info/pages/privacy-policy-101/');
    expect((await get('/info/topics/999-nothing/')).statusCode).toBe(404);
    expect((await get('/info/topics/100-terms-of-service/')).statusCode).toBe(404);
    expect((await get('/info/sections/abc/')).statusCode).toBe(404);
  });

  it('searches within the help in the reader’s language, words as prefixes', async () => {
    const en = await get('/info/?q=monitor');
    expect(en.body).toContain('href="/info/topics/13-monitoring/"');
    expect(en.body).toMatch(/\d+ topics? match/);
    const de = await get(`/de/info/?q=${encodeURIComponent('Löschung')}`);
    expect(de.body).toContain('href="/de/info/topics/22-takedown-requests/"');
    const none = await get('/info/?q=zzzqqq');
    expect(none.body).toContain('No topic matches “zzzqqq”');
    // A search result page is not for search engines.
    expect(none.body).toContain('noindex');
  });
});

describe('GET /api/public/kb_topics', () => {
  it('lists the sections, the children of one, and search results', async () => {
    const sections = (await get('/api/public/kb_topics?kind=section&lang=fr')).json();
    expect(sections.data.map((s: { id: number }) => s.id)).toEqual([1, 2, 3]);
    expect(sections.data[0]).toMatchObject({ name: 'Utiliser Registra', path: '/fr/info/sections/1-using-registra/' });
    const children = (await get('/api/public/kb_topics?parent_id=21')).json();
    expect(children.data.map((c: { uri: string }) => c.uri)).toEqual(['takedown-requests']);
    const found = (await get('/api/public/kb_topics?q=export')).json();
    expect(found.data[0].uri).toBe('export');
  });

  it('gives one topic with its translations and child topics; an unknown id is 404, a bad one 400', async () => {
    const res = await get('/api/public/kb_topics/21?lang=de');
    expect(res.statusCode).toBe(200);
    const topic = res.json().kb_topic;
    expect(topic.name).toBe('Datenquellen und Aktualisierung');
    expect(topic.body_language).toBe('de');
    expect(topic.translations.map((tr: { language: string }) => tr.language).sort()).toEqual(['de', 'en', 'fr']);
    expect(topic.translations.find((tr: { language_id: number }) => tr.language_id === 41).name).toBe(
      'Data sources and update frequency',
    );
    expect(topic.child_topics.map((c: { id: number }) => c.id)).toEqual([22]);
    expect((await get('/api/public/kb_topics/9999')).statusCode).toBe(404);
    const bad = await get('/api/public/kb_topics?parent_id=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('parent_id');
  });
});

describe('content from files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kb-'));
    await mkdir(join(dir, 'en'));
    await writeFile(
      join(dir, 'en', 'hostile.md'),
      [
        '---',
        'id: 500',
        'kind: topic',
        'title: Hostile',
        'description: Tries to run script',
        '---',
        'Hello <script>alert("kb")</script> <img src=x onerror="alert(1)"> <iframe src="https://evil.example"></iframe>',
        '',
        '[click](javascript:alert(2)) <a href="//evil.example/x" onclick="alert(3)">away</a> <style>body{display:none}</style>',
        '',
        '<p style="position:fixed">styled</p>',
        '',
        '[fine](https://example.org/) [home](/info/)',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    // The real content again, for the other tests of this file.
    await loadKnowledgeBase(t.db);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses script, handlers, frames, styles and unsafe links; keeps prose and safe links', async () => {
    const result = await loadKnowledgeBase(t.db, pathToFileURL(`${dir}/`));
    expect(result).toMatchObject({ topics: 1, written: 1 });
    const res = await get('/de/info/topics/500-hostile/');
    expect(res.statusCode).toBe(200);
    const body = /<div class="kb-body"[^>]*>([\s\S]*?)<\/div>/.exec(res.body)?.[1] ?? '';
    expect(body).toContain('Hello');
    expect(body).not.toMatch(/<script|<img|<iframe|<style|onerror|onclick|javascript:|evil\.example|style=/i);
    expect(body).toContain('href="https://example.org/"');
    expect(body).toContain('href="/de/info/"');
    // Only English exists: the German reader is told, and the page says which language it is in.
    expect(res.body).toContain('Diese Seite ist noch nicht übersetzt');
    // The page's only scripts are the app's own inline ones, whatever the content said.
    expect(res.body).not.toContain('alert(');
  });

  it('loading again writes nothing when nothing changed, and removes topics whose files are gone', async () => {
    expect(await loadKnowledgeBase(t.db, pathToFileURL(`${dir}/`))).toMatchObject({ written: 0, removed: 0 });
    await rm(join(dir, 'en', 'hostile.md'));
    expect(await loadKnowledgeBase(t.db, pathToFileURL(`${dir}/`))).toMatchObject({ topics: 0, removed: 1 });
    expect((await get('/info/topics/500-hostile/')).statusCode).toBe(404);
  });
});
