/** Whether a request's URL (path, with or without its query) is the JSON API's, under /api. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}
