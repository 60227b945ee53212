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
import {
  COMPANY_EXPORT_SECTIONS,
  type CompanyExportSection,
  DEFAULT_EXPORT_CHOICES,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  EXPORT_SCOPES,
  EXPORT_SEPARATORS,
  type ExportChoices,
  type ExportFormat,
  type ExportScope,
  type ExportSeparator,
} from './export-options.ts';

// A signed-in user's export view settings per search section (spec §3 "export view settings",
// §5, §7 Users: export_view_settings): the format, separator, scope, N and the company data
// sections last chosen, restored on the export page. Saving merges: a field left out keeps its
// saved value (or the default for a new setting). Every query is scoped to the caller's user id.

export type ExportViewSetting = {
  id: number;
  section: string;
  format: ExportFormat;
  separator: ExportSeparator;
  scope: ExportScope;
  count: number;
  sections: CompanyExportSection[];
  created_at: string;
  updated_at: string;
};

export type ExportSettingInput = {
  format?: string;
  separator?: string;
  scope?: string;
  count?: number;
  sections?: readonly string[];
};

type Row = {
  id: number;
  section: string;
  format: ExportFormat;
  separator: ExportSeparator;
  scope: ExportScope;
  row_count: number;
  sections: string[];
  created_at: Date;
  updated_at: Date;
};

function settingOf(row: Row): ExportViewSetting {
  return {
    id: Number(row.id),
    section: row.section,
    format: row.format,
    separator: row.separator,
    scope: row.scope,
    count: Number(row.row_count),
    sections: row.sections.filter((s): s is CompanyExportSection =>
      (COMPANY_EXPORT_SECTIONS as readonly string[]).includes(s),
    ),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

function oneOf<T extends string>(field: string, values: readonly T[], value: string): T {
  const found = values.find((v) => v === value);
  if (!found) throw fieldProblem(field, 'invalid', `${field} must be one of ${values.join(', ')}.`);
  return found;
}

/** The company data sections chosen, checked: each a known section once, in the declared order. */
export function checkSections(sections: readonly string[]): CompanyExportSection[] {
  for (const s of sections) oneOf('sections', COMPANY_EXPORT_SECTIONS, s);
  return COMPANY_EXPORT_SECTIONS.filter((s) => sections.includes(s));
}

/** The input's fields checked; the ones left out are undefined. A 400 names the first bad one. */
export function checkExportInput(input: ExportSettingInput): Partial<ExportChoices> {
  const out: Partial<ExportChoices> = {};
  if (input.format !== undefined) out.format = oneOf('format', EXPORT_FORMATS, input.format);
  if (input.separator !== undefined) out.separator = oneOf('separator', EXPORT_SEPARATORS, input.separator);
  if (input.scope !== undefined) out.scope = oneOf('scope', EXPORT_SCOPES, input.scope);
  if (input.count !== undefined) {
    if (!Number.isInteger(input.count) || input.count < 1 || input.count > EXPORT_ROW_LIMIT) {
      throw fieldProblem('count', 'invalid', `count must be a whole number from 1 to ${EXPORT_ROW_LIMIT}.`);
    }
    out.count = input.count;
  }
  if (input.sections !== undefined) out.sections = checkSections(input.sections);
  return out;
}

function sectionOf(id: string): string {
  const section = sectionById(id);
  if (!section) throw fieldProblem('section', 'invalid', 'Unknown search section.');
  return section.id;
}

/** Saved export settings as a user's records (core/user-data/owned-records.ts): one per section. */
const EXPORT_VIEW_SETTINGS: OwnedResource<Row, ExportViewSetting> = {
  table: 'export_view_settings',
  alias: 's',
  noun: 'export view setting',
  select: (db, userId) =>
    db.kysely
      .selectFrom('export_view_settings as s')
      .select([
        's.id',
        's.section',
        's.format',
        's.separator',
        's.scope',
        's.row_count',
        's.sections',
        's.created_at',
        's.updated_at',
      ])
      .where('s.user_id', '=', userId),
  itemOf: settingOf,
};

/** A user's saved export settings (at most one per section), by section. */
export function listExportSettings(
  db: Db,
  userId: number,
  query: { section?: string } = {},
): Promise<ExportViewSetting[]> {
  const section = query.section ? sectionOf(query.section) : undefined;
  return listPerSection(db, EXPORT_VIEW_SETTINGS, userId, section);
}

/** The saved export settings of one section, or null. */
export function getExportSetting(db: Db, userId: number, section: string): Promise<ExportViewSetting | null> {
  return getOfSection(db, EXPORT_VIEW_SETTINGS, userId, section);
}

/** The choices a user's export page starts with: their saved settings over the defaults. */
export function choicesOf(setting: ExportViewSetting | null): ExportChoices {
  if (!setting) return DEFAULT_EXPORT_CHOICES;
  return {
    format: setting.format,
    separator: setting.separator,
    scope: setting.scope,
    count: setting.count,
    sections: setting.section === 'companies' ? setting.sections : DEFAULT_EXPORT_CHOICES.sections,
  };
}

/** Saves a section's export settings (creates them or changes the saved ones); fields left out keep their value. */
export async function saveExportSetting(
  db: Db,
  userId: number,
  section: string,
  input: ExportSettingInput,
): Promise<ExportViewSetting> {
  const id = sectionOf(section);
  const c = checkExportInput(input);
  const d = DEFAULT_EXPORT_CHOICES;
  const row = await db.kysely
    .insertInto('export_view_settings')
    .values({
      user_id: userId,
      section: id,
      format: c.format ?? d.format,
      separator: c.separator ?? d.separator,
      scope: c.scope ?? d.scope,
      row_count: c.count ?? d.count,
      sections: c.sections ?? d.sections,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'section']).doUpdateSet({
        ...(c.format === undefined ? {} : { format: c.format }),
        ...(c.separator === undefined ? {} : { separator: c.separator }),
        ...(c.scope === undefined ? {} : { scope: c.scope }),
        ...(c.count === undefined ? {} : { row_count: c.count }),
        ...(c.sections === undefined ? {} : { sections: c.sections }),
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning(['id', 'section', 'format', 'separator', 'scope', 'row_count', 'sections', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
  return settingOf(row);
}

/** Changes saved export settings by id (the API's PATCH); another user's are "not found". */
export async function updateExportSetting(
  db: Db,
  userId: number,
  id: number,
  input: ExportSettingInput,
): Promise<ExportViewSetting> {
  const current = await requireOwned(db, EXPORT_VIEW_SETTINGS, userId, id);
  return saveExportSetting(db, userId, current.section, input);
}

/** Deletes saved export settings, all or none: an id that is not the caller's is a 404. */
export function deleteExportSettings(db: Db, userId: number, ids: readonly number[]): Promise<number> {
  return deleteOwnedIds(db, EXPORT_VIEW_SETTINGS, userId, ids, 'export_view_setting_ids');
}
