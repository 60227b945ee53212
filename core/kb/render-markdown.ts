import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { localePath } from '../i18n/i18n.ts';
import type { Lang } from '../reference/reference-data.ts';

// Help content is Markdown written in the repository (content/kb/), but it is rendered as HTML in
// every page, so it is treated as untrusted all the same (ADR 0021): marked turns it into HTML, and
// sanitize-html keeps only the tags and attributes of prose (no script, style, iframe, event
// handler, or link other than http(s), mailto and the site's own paths). Site paths in the content
// are written in English (`/info/…`) and get the page's language prefix here.

const marked = new Marked({ gfm: true, async: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'p',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'code',
    'pre',
    'blockquote',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'hr',
    'br',
    'dl',
    'dt',
    'dd',
  ],
  allowedAttributes: { a: ['href', 'title'], th: ['scope'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // A heading of level 1 is the page's own title: content headings start at 2.
  transformTags: { h1: 'h2' },
  disallowedTagsMode: 'discard',
};

export type RenderedMarkdown = { html: string; text: string };

/** Markdown → sanitised HTML (site links in `lang`) and its plain text (for search). */
export function renderMarkdown(markdown: string, lang: Lang): RenderedMarkdown {
  const raw = marked.parse(markdown) as string;
  const html = sanitizeHtml(raw, {
    ...SANITIZE,
    transformTags: {
      ...SANITIZE.transformTags,
      a: (tagName, attribs) => {
        const href = attribs.href ?? '';
        // Site paths get the language prefix; anything else is left to the scheme allowlist.
        const local = href.startsWith('/') && !href.startsWith('//');
        return { tagName, attribs: { ...attribs, href: local ? localePath(lang, href) : href } };
      },
    },
  });
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
  return { html, text };
}
