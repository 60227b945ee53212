import { sql } from 'kysely';
import type { TestApp } from './test-app.ts';

/** The word in the names of the most companies, of `minLength` letters or more (a name query with pages of matches). */
export async function commonNameWord(
  t: Pick<TestApp, 'db'>,
  minLength = 1,
): Promise<{ word: string; companies: number }> {
  const r = await sql<{ word: string; companies: number }>`
    select w as word, count(distinct id)::int as companies
    from legal_entities, unnest(string_to_array(search_name, ' ')) w
    where length(w) >= ${minLength} group by w order by 2 desc, w limit 1`.execute(t.db.kysely);
  return r.rows[0];
}
