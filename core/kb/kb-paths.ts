// The addresses of help topics (ADR 0021), shared by the server and the pages' browser bundle:
// this module imports nothing.

export type KbKind = 'section' | 'topic' | 'page';

/** The site path of a topic: /info/sections/{id}-{slug}/, /info/topics/{id}-{slug}/, /info/pages/{uri}-{id}/. */
export function kbPath(topic: { id: number; kind: KbKind; uri: string }): string {
  if (topic.kind === 'section') return `/info/sections/${topic.id}-${topic.uri}/`;
  if (topic.kind === 'topic') return `/info/topics/${topic.id}-${topic.uri}/`;
  return `/info/pages/${topic.uri}-${topic.id}/`;
}

/** The id of a path reference: `{id}-{slug}` (sections, topics) or `{uri}-{id}` (pages); null when malformed. */
export function kbRefId(kind: KbKind, ref: string): number | null {
  const m = kind === 'page' ? /^[a-z0-9-]+-(\d{1,9})$/.exec(ref) : /^(\d{1,9})(?:-[a-z0-9-]*)?$/.exec(ref);
  return m ? Number(m[1]) : null;
}

/** The pages the footer links to (their ids are fixed in content/kb/en/*.md; a test holds them). */
export const KB_LINKS = {
  terms: { id: 100, kind: 'page', uri: 'terms-of-service' },
  privacy: { id: 101, kind: 'page', uri: 'privacy-policy' },
  cookies: { id: 102, kind: 'page', uri: 'cookie-policy' },
  dataSources: { id: 21, kind: 'topic', uri: 'data-sources' },
} as const satisfies Record<string, { id: number; kind: KbKind; uri: string }>;
