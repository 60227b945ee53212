import { createContext, type RouterContext } from 'react-router';
import type { Reference } from '../core/reference/reference-data.ts';
import type { Db } from '../db/client.ts';

/** What route loaders and actions get from the server: the same services the JSON API uses. */
export type AppServices = {
  db: Db;
  reference: Reference;
  siteUrl: string;
};

// One context object even when this module is loaded twice (by the server and inside the
// bundled build): it lives on globalThis under a registered symbol.
const KEY = Symbol.for('registra.services');
const holder = globalThis as unknown as Record<symbol, RouterContext<AppServices>>;
holder[KEY] ??= createContext<AppServices>();
export const servicesContext: RouterContext<AppServices> = holder[KEY];
