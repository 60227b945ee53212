import { LANGUAGE_EN } from '../../db/reference/enumerations.ts';
import { displayName, flagOf, type Lang, type Reference } from '../reference/reference-data.ts';
import type { RecordRow } from '../search/find-records.ts';
import { fieldColumn } from '../sections/record-fields.ts';
import type { SectionDecl } from '../sections/section.ts';

/** A location as the data API links one: id, uri, display name, country code and flag. */
export type LocationLink = { id: number; uri: string; name: string; countryCode: string; flag: string };

/** The company a record belongs to, as the data API answers it. */
export type RecordCompany = {
  id: number;
  uri: string;
  name: string;
  jurisdiction: LocationLink;
  status_id: number | null;
  primary_industry_id: number | null;
  size_id: number | null;
  employees_id: number | null;
};

export type PresentedRecord = { id: number; legal_entity_id: number; legal_entity: RecordCompany } & Record<
  string,
  unknown
>;

/**
 * A record as the data API returns it: reference values as links, the company it belongs to. The
 * one home of a record's shape: the API's pages and the bulk files (ADR 0036) present through it.
 */
export function presentRecord(section: SectionDecl, row: RecordRow, reference: Reference, lang: Lang): PresentedRecord {
  const languageId = reference.languageIds[lang] || LANGUAGE_EN;
  const location = (id: number): LocationLink => {
    const item = reference.locations.byId.get(id);
    return {
      id,
      uri: item?.uri ?? '',
      name: displayName(item, languageId),
      countryCode: item?.country_code ?? '',
      flag: flagOf(reference, id),
    };
  };
  const out: PresentedRecord = {
    id: row.id,
    legal_entity_id: row.legal_entity_id,
    legal_entity: {
      id: row.legal_entity_id,
      uri: row.company_uri,
      name: row.company_name,
      jurisdiction: location(row.company_jurisdiction_id),
      status_id: row.company_status_id,
      primary_industry_id: row.company_industry_id,
      size_id: row.company_size_id,
      employees_id: row.company_employees_id,
    },
  };
  for (const f of section.record?.fields ?? []) {
    const value = row[fieldColumn(f)];
    if (value === null || value === undefined) {
      out[f.key] = null;
      continue;
    }
    switch (f.type) {
      case 'enum': {
        const v = f.values?.find((e) => e.id === Number(value));
        out[f.key] = v ? { id: v.id, uri: v.uri, name: v.label[lang] } : null;
        break;
      }
      case 'location':
        out[f.key] = location(Number(value));
        break;
      case 'currency':
        out[f.key] = reference.currencies.byId.get(Number(value))?.uri.toUpperCase() ?? null;
        break;
      case 'amount':
        out[f.key] = String(value);
        break;
      case 'number':
      case 'year':
        out[f.key] = Number(value);
        break;
      default:
        out[f.key] = String(value);
    }
  }
  return out;
}
