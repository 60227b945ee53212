import { createContext } from 'react';

/**
 * True while rendering a page whose data could not be read because the database is away
 * (app/entry.server.tsx): the error boundary then says so, and the page is a 503 with Retry-After.
 */
export const DatabaseOutage = createContext(false);
