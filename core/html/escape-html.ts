const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/**
 * Text or an attribute's value escaped for HTML, as React escapes it (so markup written by hand
 * beside React's reads the same): the one escaper of emails, server-written pages and markup
 * written as a string.
 */
export function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPED[c]) : text;
}
