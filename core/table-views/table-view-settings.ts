import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { sectionById } from '../sections/sections.ts';
import {
  deleteOwnedIds,
  getOfSection,
  listPerSection,
  type OwnedResource,
  requireOwned,
} from '../user-data/owned-records.ts';
import { fieldProblem } from '../user-data/user-data-errors.ts';

// A signed-in user's table view per search section (spec §3 "table view settings", §4 "table
// style per page defaults to style-2", §7 table_view_settings): the table style and which of the
// section's declared columns show. Guests keep the same in the `table_view` cookie
// (app/presenters/table-view.server.ts); a saved setting is the signed-in user's, on any device.
// Saving merges: a field left out keeps its saved value (or the default for a new setting).

export const TABLE_STYLES = ['style-1', 'style-2', 'style-3'] as const;
export type TableStyle = (typeof TABLE_STYLES)[number];
export const DEFAULT_TABLE_STYLE: TableStyle = 'style-2';

export type TableViewSetting = {
  id: number;
  /** The search section (companies, vessels, …). */
  section: string;
  style: TableStyle;
  /** The visible columns in order (keys of the section's declared columns); null: the section's default. */
  columns: string[] | null;
  created_at: string;
  updated_at: string;
};

export type TableViewInput = {
  style?: string;
  /** Column keys; null (or every column) restores the section's default. */
  columns?: readonly string[] | null;
};

type SettingRow = {
  id: number;
  section: string;
  style: TableStyle;
  columns: string[] | null;
  created_at: Date;
  updated_at: Date;
};

function settingOf(row: SettingRow): TableViewSetting {
  return {
    id: Number(row.id),
    section: row.section,
    style: row.style,
    columns: row.columns,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function sectionOf(id: string) {
  const section = sectionById(id);
  if (!section) throw fieldProblem('section', 'invalid', 'Unknown search section.');
  return section;
}

function checkStyle(style: string): TableStyle {
  const found = TABLE_STYLES.find((s) => s === style);
  if (!found) throw fieldProblem('style', 'invalid', `style must be one of ${TABLE_STYLES.join(', ')}.`);
  return found;
}

/**
 * The columns of a section a user chose, checked against the section's declaration: at least one,
 * each a declared column once. Every column in declared order is the default (null).
 */
export function checkColumns(sectionId: string, columns: readonly string[] | null): string[] | null {
  if (columns === null) return null;
  const declared = sectionOf(sectionId).columns.map((c) => c.key);
  if (columns.length === 0) throw fieldProblem('columns', 'required', 'Choose at least one column.');
  const seen = new Set<string>();
  for (const column of columns) {
    if (!declared.includes(column)) {
      throw fieldProblem(
        'columns',
        'invalid',
        `The ${sectionId} table has no column ${JSON.stringify(column).slice(0, 60)}; its columns are ${declared.join(', ')}.`,
      );
    }
    if (seen.has(column)) throw fieldProblem('columns', 'duplicate', `The column ${column} is chosen twice.`);
    seen.add(column);
  }
  const isDefault = columns.length === declared.length && columns.every((c, i) => c === declared[i]);
  return isDefault ? null : [...columns];
}

/** Saved table views as a user's records (core/user-data/owned-records.ts): one per section. */
const TABLE_VIEW_SETTINGS: OwnedResource<SettingRow, TableViewSetting> = {
  table: 'table_view_settings',
  alias: 's',
  noun: 'table view setting',
  select: (db, userId) =>
    db.kysely
      .selectFrom('table_view_settings as s')
      .select(['s.id', 's.section', 's.style', 's.columns', 's.created_at', 's.updated_at'])
      .where('s.user_id', '=', userId),
  itemOf: settingOf,
};

/** Every saved table view of a user (at most one per section), by section. */
export function listTableViewSettings(
  db: Db,
  userId: number,
  query: { section?: string } = {},
): Promise<TableViewSetting[]> {
  const section = query.section ? sectionOf(query.section).id : undefined;
  return listPerSection(db, TABLE_VIEW_SETTINGS, userId, section);
}

/** The saved table view of one section, or null (the caller falls back to the cookie or the default). */
export function getTableViewSetting(db: Db, userId: number, section: string): Promise<TableViewSetting | null> {
  return getOfSection(db, TABLE_VIEW_SETTINGS, userId, section);
}

/** Saves a section's table view (creates it or changes the saved one); fields left out keep their value. */
export async function saveTableViewSetting(
  db: Db,
  userId: number,
  section: string,
  input: TableViewInput,
): Promise<TableViewSetting> {
  const id = sectionOf(section).id;
  const style = input.style === undefined ? undefined : checkStyle(input.style);
  const columns = input.columns === undefined ? undefined : checkColumns(id, input.columns);
  const row = await db.kysely
    .insertInto('table_view_settings')
    .values({ user_id: userId, section: id, style: style ?? DEFAULT_TABLE_STYLE, columns: columns ?? null })
    .onConflict((oc) =>
      oc.columns(['user_id', 'section']).doUpdateSet({
        ...(style === undefined ? {} : { style }),
        ...(columns === undefined ? {} : { columns }),
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning(['id', 'section', 'style', 'columns', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
  return settingOf(row);
}

/** Changes a saved table view by id (the API's PATCH); another user's is "not found". */
export async function updateTableViewSetting(
  db: Db,
  userId: number,
  id: number,
  input: TableViewInput,
): Promise<TableViewSetting> {
  const current = await requireOwned(db, TABLE_VIEW_SETTINGS, userId, id);
  return saveTableViewSetting(db, userId, current.section, input);
}

/** Deletes saved table views, all or none: an id that is not the caller's is a 404. */
export function deleteTableViewSettings(db: Db, userId: number, ids: readonly number[]): Promise<number> {
  return deleteOwnedIds(db, TABLE_VIEW_SETTINGS, userId, ids, 'table_view_setting_ids');
}
