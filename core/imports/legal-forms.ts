import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { LegalForm } from './company-facts.ts';
import { canonicalJson, insertRows } from './sql-rows.ts';

// ISO 20275 entity legal forms (docs/decisions/0014-importers.md "elf"): one row per code, with its
// names per language merged in (the list gives one row per code and language).

export type WriteResult = { new: number; changed: number; unchanged: number; touched?: number[] };

export async function writeLegalForms(db: Db, forms: LegalForm[]): Promise<WriteResult> {
  const result: WriteResult = { new: 0, changed: 0, unchanged: 0 };
  // Rows of one code in one batch become one form with all their names.
  const byCode = new Map<string, LegalForm>();
  for (const form of forms) {
    const seen = byCode.get(form.code);
    byCode.set(form.code, seen ? { ...form, names: [...seen.names, ...form.names] } : form);
  }
  const codes = [...byCode.keys()];
  await db.kysely.transaction().execute(async (tx) => {
    const existing = new Map(
      (await tx.selectFrom('legal_forms').selectAll().where('code', 'in', codes).execute()).map((f) => [f.code, f]),
    );
    const names = new Map<string, string>();
    for (const n of await tx.selectFrom('legal_form_names').selectAll().where('code', 'in', codes).execute())
      names.set(
        `${n.code} ${n.language_code}`,
        canonicalJson([n.name, n.transliterated_name, n.abbreviations, n.abbreviations_transliterated]),
      );
    const locations = new Map<string, number>();
    for (const l of await tx
      .selectFrom('locations')
      .select(['id', 'location_type_id', 'country_code', 'subdivision_code'])
      .execute()) {
      if (l.subdivision_code) locations.set(l.subdivision_code.toUpperCase(), l.id);
      else if (l.location_type_id === 1 && !locations.has(l.country_code)) locations.set(l.country_code, l.id);
    }
    const formRows: object[] = [];
    const nameRows = new Map<string, object>();
    for (const form of byCode.values()) {
      const jurisdiction =
        (form.subdivisionCode ? locations.get(form.subdivisionCode.toUpperCase()) : undefined) ??
        (form.countryCode ? locations.get(form.countryCode) : undefined) ??
        null;
      const row = {
        code: form.code,
        country_code: form.countryCode,
        subdivision_code: form.subdivisionCode,
        jurisdiction_id: jurisdiction,
        status: form.status,
        created_on: form.createdOn,
        modified_on: form.modifiedOn,
      };
      const before = existing.get(form.code);
      let changed = !before;
      if (before)
        changed =
          before.country_code !== row.country_code ||
          before.subdivision_code !== row.subdivision_code ||
          before.status !== row.status ||
          before.created_on !== row.created_on ||
          before.modified_on !== row.modified_on;
      for (const n of form.names) {
        const value = canonicalJson([n.name, n.transliterated, n.abbreviations, n.abbreviationsTransliterated]);
        if (names.get(`${form.code} ${n.language}`) !== value) changed = true;
        nameRows.set(`${form.code} ${n.language}`, {
          code: form.code,
          language_code: n.language,
          name: n.name,
          transliterated_name: n.transliterated,
          abbreviations: n.abbreviations,
          abbreviations_transliterated: n.abbreviationsTransliterated,
        });
      }
      if (!before) result.new += 1;
      else if (changed) result.changed += 1;
      else result.unchanged += 1;
      if (changed) formRows.push(row);
    }
    await insertRows(
      tx,
      'legal_forms',
      {
        code: 'text',
        country_code: 'text',
        subdivision_code: 'text',
        jurisdiction_id: 'int',
        status: 'text',
        created_on: 'date',
        modified_on: 'date',
      },
      formRows,
      sql`on conflict (code) do update set country_code = excluded.country_code, subdivision_code = excluded.subdivision_code,
        jurisdiction_id = excluded.jurisdiction_id, status = excluded.status, created_on = excluded.created_on,
        modified_on = excluded.modified_on`,
    );
    await sql`insert into legal_form_names (code, language_code, name, transliterated_name, abbreviations, abbreviations_transliterated)
      select code, language_code, name, transliterated_name,
        array(select jsonb_array_elements_text(abbreviations)), array(select jsonb_array_elements_text(abbreviations_transliterated))
      from jsonb_to_recordset(${JSON.stringify([...nameRows.values()])}::jsonb) as x(code text, language_code text, name text,
        transliterated_name text, abbreviations jsonb, abbreviations_transliterated jsonb)
      on conflict (code, language_code) do update set name = excluded.name, transliterated_name = excluded.transliterated_name,
        abbreviations = excluded.abbreviations, abbreviations_transliterated = excluded.abbreviations_transliterated`.execute(
      tx,
    );
  });
  return result;
}
