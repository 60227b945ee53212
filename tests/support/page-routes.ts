// The page routes of the production build (`npx react-router build` first), for the tests that walk
// every page: their path patterns as the router matches them, without the optional language prefix.

type BuildRoute = { parentId?: string; path?: string; module: { action?: unknown } };

export type PageRoute = {
  /** The route's id (its module path, or the id routes.ts gives it). */
  id: string;
  /** e.g. `/companies/details/:uri/`, `/:section/search/f/*` */
  pattern: string;
  /** True when the route handles form posts. */
  action: boolean;
};

export async function pageRoutes(): Promise<PageRoute[]> {
  const build = (await import(new URL('../../build/server/index.js', import.meta.url).href)) as {
    routes: Record<string, BuildRoute>;
  };
  const routes = build.routes;
  const full = (id: string): string => {
    const route = routes[id];
    const own = (route.path ?? '').replace(/^:lang\?$/, '');
    return route.parentId ? `${full(route.parentId)}/${own}`.replace(/\/+/g, '/') : own;
  };
  return Object.keys(routes)
    .filter((id) => id !== 'root' && id !== 'routes/locale')
    .map((id) => ({
      id,
      pattern: `${full(id)}/`.replace(/\/+/g, '/'),
      action: routes[id].module.action !== undefined,
    }));
}

/** A pattern as a path: `:section` is the companies, every other parameter (and `*`) what `fill` gives for its name. */
export function fillPattern(pattern: string, fill: (name: string) => string): string {
  return pattern
    .replace(/:section/, 'companies')
    .replace(/:([a-z]+)|\*/gi, (_, name: string | undefined) => fill(name ?? '*'))
    .replace(/\/+/g, '/');
}
