/**
 * An island's source as pages inline it: whole-line comments dropped (they are for readers of the
 * file, not for every page). The Content-Security-Policy allows exactly these texts, by their
 * hashes (server/plugins/security-headers.ts, docs/decisions/0012-security-headers.md).
 */
export function inlineScript(source: string): string {
  return source.replace(/^\s*(\/\/.*|\/\*\*.*\*\/)\n/gm, '');
}
