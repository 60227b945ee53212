import { AppError } from '../errors/app-error.ts';
import { LANGS, type Lang } from '../reference/reference-data.ts';
import { parseSearchState, type SearchState } from '../search/search-state.ts';
import type { SectionDecl } from '../sections/section.ts';
import {
  DEFAULT_EXPORT_CHOICES,
  EXPORT_FORMATS,
  EXPORT_ROW_LIMIT,
  EXPORT_SCOPES,
  EXPORT_SEPARATORS,
  type ExportChoices,
} from './export-options.ts';
import { checkSections } from './export-settings.ts';

// An export's parameters (the API's query, the export page's form, the CLI's options): the
// export's own choices beside the search's parameters, which the search grammar checks.

/** Parameters that belong to the export; every other one is the search's. */
export const EXPORT_PARAMS = ['format', 'separator', 'scope', 'count', 'ids', 'sections', 'lang', 'list'] as const;

export type ParsedExport = {
  state: SearchState;
  choices: ExportChoices;
  ids: number[];
  lang: Lang;
  /** The number of a company list of the caller (the list page's export). */
  list?: number;
};

function bad(parameter: string, message: string): AppError {
  return new AppError('bad_request', message, { parameter });
}

function one(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw bad(name, `${name} is given twice`);
  return values[0];
}

function choice<T extends string>(params: URLSearchParams, name: string, values: readonly T[], fallback: T): T {
  const value = one(params, name);
  if (value === undefined || value === '') return fallback;
  const found = values.find((v) => v === value);
  if (!found) throw bad(name, `${name} must be one of ${values.join(', ')}`);
  return found;
}

/** Values of a repeated or `|`/`,`-joined parameter. */
function list(params: URLSearchParams, name: string): string[] | undefined {
  if (!params.has(name)) return undefined;
  return params
    .getAll(name)
    .flatMap((v) => v.split(/[|,]/))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Reads and checks an export's parameters; a bad one is a 400 that names it. */
export function parseExportParams(section: SectionDecl, params: URLSearchParams): ParsedExport {
  const format = choice(params, 'format', EXPORT_FORMATS, DEFAULT_EXPORT_CHOICES.format);
  const separator = choice(params, 'separator', EXPORT_SEPARATORS, DEFAULT_EXPORT_CHOICES.separator);
  const scope = choice(params, 'scope', EXPORT_SCOPES, DEFAULT_EXPORT_CHOICES.scope);
  const lang = choice(params, 'lang', LANGS, 'en');
  const countText = one(params, 'count');
  let count = DEFAULT_EXPORT_CHOICES.count;
  if (countText !== undefined && countText !== '') {
    if (!/^\d{1,6}$/.test(countText) || Number(countText) < 1 || Number(countText) > EXPORT_ROW_LIMIT) {
      throw bad('count', `count must be a whole number from 1 to ${EXPORT_ROW_LIMIT}`);
    }
    count = Number(countText);
  }
  const idTexts = list(params, 'ids') ?? [];
  const badId = idTexts.find((v) => !/^\d{1,15}$/.test(v));
  if (badId !== undefined) throw bad('ids', `ids has an invalid id "${badId.slice(0, 40)}"`);
  const ids = [...new Set(idTexts.map(Number))];
  if (ids.length > EXPORT_ROW_LIMIT) throw bad('ids', `ids: at most ${EXPORT_ROW_LIMIT} rows can be exported at once`);
  const sectionTexts = list(params, 'sections');
  let sections = DEFAULT_EXPORT_CHOICES.sections;
  if (sectionTexts !== undefined) {
    if (section.id !== 'companies') throw bad('sections', `sections: ${section.id} exports all of its fields`);
    try {
      sections = checkSections(sectionTexts);
    } catch (error) {
      if (error instanceof AppError) throw bad('sections', error.message);
      throw error;
    }
  }
  const listText = one(params, 'list');
  if (listText !== undefined && !/^\d{1,9}$/.test(listText))
    throw bad('list', 'list must be the number of one of your lists');
  const search = new URLSearchParams();
  for (const [name, value] of params) {
    if (!(EXPORT_PARAMS as readonly string[]).includes(name)) search.append(name, value);
  }
  const parsed = parseSearchState(section, search);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    throw new AppError('bad_request', first.message, { parameter: first.parameter, issues: parsed.errors });
  }
  return {
    state: parsed.state,
    choices: { format, separator, scope, count, sections },
    ids,
    lang,
    list: listText === undefined ? undefined : Number(listText),
  };
}
