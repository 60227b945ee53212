import { data, type ServerBuild } from 'react-router';
import { AppError, httpStatus } from '../core/errors/app-error.ts';

// An AppError that escapes a page's loader, action or middleware is the page's answer, as it is
// the API's (server/plugins/errors.ts): its status from the one code → status table (httpStatus)
// and the root error boundary's translated page for that status (app/root.tsx), never a 500. Pages
// still catch what they answer better themselves (a form's field problems, a 402 that offers the
// pricing page); this is for the rest, in one place instead of a catch in every route.

/** The error a page throws for an AppError: a 4xx (or 503) answer; anything else unchanged. */
export function pageErrorOf(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code === 'internal') return error;
  return data({ message: error.message, code: error.code }, { status: httpStatus(error.code) });
}

type RouteModule = NonNullable<ServerBuild['routes'][string]>['module'];
type DataFunction = (...args: never[]) => unknown;

function answering<F extends DataFunction | undefined>(fn: F): F {
  if (!fn) return fn;
  const wrapped = async (...args: never[]) => {
    try {
      return await fn(...args);
    } catch (error) {
      throw pageErrorOf(error);
    }
  };
  return wrapped as unknown as F;
}

/**
 * The build with every route's loader, action and middleware answering AppErrors (pageErrorOf).
 * React Router reads a route's functions from `build.routes[id].module` when it calls them, so a
 * copy of each module with wrapped functions is all it takes; components, `headers`, `meta` and
 * `handle` are the module's own.
 */
export function answeringAppErrors(build: ServerBuild): ServerBuild {
  const routes: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module: RouteModule = route.module;
    routes[id] = {
      ...route,
      module: {
        ...module,
        loader: answering(module.loader),
        action: answering(module.action),
        middleware: module.middleware?.map((fn) => answering(fn)),
      },
    };
  }
  return { ...build, routes };
}
