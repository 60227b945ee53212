/** Whether a request's URL (path, with or without its query) is the JSON API's, under /api. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/**
 * Whether a request's URL is the reconciliation service's (/api/reconcile and its suggest,
 * preview and extension services): the only routes open to other origins (ADR 0034).
 */
export function isReconciliationPath(url: string): boolean {
  return /^\/api\/reconcile(?:[/?#]|$)/.test(url);
}
