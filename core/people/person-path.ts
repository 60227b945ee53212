import { slugify } from '../../db/reference/slugify.ts';

// A person's (a member's) page: /members/details/{name}/{id}/ (spec §2). The id finds them; the
// name is for readers and search engines, and a wrong one redirects to the right one.

/** `/members/details/jane-doe/42/` (without a language prefix). */
export function personPath(name: string, id: number): string {
  return `/members/details/${slugify(name).slice(0, 80).replace(/-+$/, '') || 'member'}/${id}/`;
}
