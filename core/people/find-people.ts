import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { visibleMember } from '../takedowns/visible.ts';
import { mainPosition, type PersonFacts } from './person-lines.ts';

// People search by name (ADR 0022): members whose name holds every word typed, people first,
// then by name. `members_name_trgm_idx` (migration 0024) answers the `ilike` at a million companies.
// Each hit comes with what tells it apart from a namesake (core/people/person-lines.ts).

export const PEOPLE_PAGE_SIZE = 50;

export type PersonHit = PersonFacts & { name_type: string; positions: number };

/** Escapes `%`, `_` and `\` for a LIKE pattern. */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Up to `limit` members whose name contains each word of `query` (case-insensitive). */
export async function findPeople(db: Db, query: string, limit = PEOPLE_PAGE_SIZE): Promise<PersonHit[]> {
  const words = query.trim().split(/\s+/).filter(Boolean).slice(0, 6);
  if (words.length === 0) return [];
  let q = db.kysely
    .selectFrom('members as m')
    .leftJoinLateral(mainPosition, (join) => join.onTrue())
    .select([
      'm.id',
      'm.name',
      'm.name_type',
      'm.country_id',
      'm.birth_month',
      'm.birth_year',
      'main.main_company',
      'main.main_uri',
      'main.main_position_id',
      sql<number>`(select count(*) from legal_entity_members lem where lem.member_id = m.id)::int`.as('positions'),
    ]);
  q = q.where(visibleMember('m'));
  for (const word of words) q = q.where('m.name', 'ilike', `%${likeText(word)}%`);
  const rows = await q
    .orderBy(sql`m.name_type = 'individual'`, 'desc')
    .orderBy('m.name')
    .orderBy('m.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
