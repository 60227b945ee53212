import { PassThrough, type Readable } from 'node:stream';
import type { ImportItem, ImportSource, Relationship } from '../company-facts.ts';
import { csvRows } from '../csv-rows.ts';
import { childrenNamed, textAt, xmlRecords } from '../xml-records.ts';
import { isoDay, isoInstant } from './gleif-dates.ts';

// GLEIF Level 2 relationship records: RR-CDF XML (<RelationshipRecord>) and the golden copy's CSV
// layout (`Relationship.StartNode.NodeID`, …, five period slots in no fixed order). Mapping:
// docs/decisions/0014-importers.md "gleif-rr".

const EXPECTS =
  'GLEIF relationship records: RR-CDF XML (<RelationshipData> with <RelationshipRecord>s) or the golden-copy CSV (a header with “Relationship.StartNode.NodeID”)';

/** The relationship's own period (RELATIONSHIP_PERIOD), else the first period given. */
function period(periods: { start: string | null; end: string | null; type: string | null }[]) {
  const chosen = periods.find((p) => p.type === 'RELATIONSHIP_PERIOD') ?? periods.find((p) => p.start || p.end);
  return { periodStart: isoDay(chosen?.start ?? null), periodEnd: isoDay(chosen?.end ?? null) };
}

async function* fromXml(input: Readable): AsyncIterable<ImportItem> {
  let at = 0;
  for await (const record of xmlRecords(input, {
    root: 'RelationshipData',
    record: 'RelationshipRecord',
    expects: EXPECTS,
  })) {
    at += 1;
    try {
      const rel = record.children.find((c) => c.name === 'Relationship');
      const periods = childrenNamed(
        rel?.children.find((c) => c.name === 'RelationshipPeriods'),
        'RelationshipPeriod',
      ).map((p) => ({ start: textAt(p, 'StartDate'), end: textAt(p, 'EndDate'), type: textAt(p, 'PeriodType') }));
      const startType = textAt(rel, 'StartNode', 'NodeIDType');
      const endType = textAt(rel, 'EndNode', 'NodeIDType');
      if (startType !== 'LEI' || endType !== 'LEI') {
        yield { kind: 'reject', at, reason: `a node is not an LEI (${startType} → ${endType})` };
        continue;
      }
      const relationship: Relationship = {
        startLei: textAt(rel, 'StartNode', 'NodeID') ?? '',
        endLei: textAt(rel, 'EndNode', 'NodeID') ?? '',
        type: textAt(rel, 'RelationshipType') ?? '',
        status: textAt(rel, 'RelationshipStatus'),
        registrationStatus: textAt(record, 'Registration', 'RegistrationStatus'),
        ...period(periods),
        sourceDate: isoInstant(textAt(record, 'Registration', 'LastUpdateDate')),
      };
      yield { kind: 'relationship', at, relationship };
    } catch (error) {
      yield { kind: 'reject', at, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

async function* fromCsv(input: Readable): AsyncIterable<ImportItem> {
  for await (const r of csvRows(input, {
    required: ['Relationship.StartNode.NodeID', 'Relationship.EndNode.NodeID', 'Relationship.RelationshipType'],
    expects: EXPECTS,
  })) {
    if ('error' in r) {
      yield { kind: 'reject', at: r.line, unit: 'line', reason: r.error };
      continue;
    }
    const { row } = r;
    try {
      if (
        (row['Relationship.StartNode.NodeIDType'] || 'LEI') !== 'LEI' ||
        (row['Relationship.EndNode.NodeIDType'] || 'LEI') !== 'LEI'
      ) {
        yield { kind: 'reject', at: r.line, unit: 'line', reason: 'a node is not an LEI' };
        continue;
      }
      const periods = [];
      for (
        let i = 1;
        `Relationship.Period.${i}.startDate` in row || `Relationship.Period.${i}.periodType` in row;
        i += 1
      )
        periods.push({
          start: row[`Relationship.Period.${i}.startDate`] || null,
          end: row[`Relationship.Period.${i}.endDate`] || null,
          type: row[`Relationship.Period.${i}.periodType`] || null,
        });
      const relationship: Relationship = {
        startLei: row['Relationship.StartNode.NodeID'] ?? '',
        endLei: row['Relationship.EndNode.NodeID'] ?? '',
        type: row['Relationship.RelationshipType'] ?? '',
        status: row['Relationship.RelationshipStatus'] || null,
        registrationStatus: row['Registration.RegistrationStatus'] || null,
        ...period(periods),
        sourceDate: isoInstant(row['Registration.LastUpdateDate'] || null),
      };
      yield { kind: 'relationship', at: r.line, unit: 'line', relationship };
    } catch (error) {
      yield {
        kind: 'reject',
        at: r.line,
        unit: 'line',
        reason: error instanceof Error ? error.message : String(error),
      };
    }
  }
}

/** Peeks at the first bytes to tell XML from CSV, then reads the stream as that. */
export async function* byFirstByte(
  input: Readable,
  xml: (s: Readable) => AsyncIterable<ImportItem>,
  csv: (s: Readable) => AsyncIterable<ImportItem>,
): AsyncIterable<ImportItem> {
  const out = new PassThrough();
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) {
    out.end();
    yield* csv(out);
    return;
  }
  const chunk = first.value as Buffer;
  const text = chunk
    .toString('utf8', 0, Math.min(chunk.length, 64))
    .replace(/^\uFEFF/, '')
    .trimStart();
  out.write(chunk);
  (async () => {
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      if (!out.write(next.value)) await new Promise((resolve) => out.once('drain', resolve));
    out.end();
  })().catch((error) => out.destroy(error));
  yield* text.startsWith('<') ? xml(out) : csv(out);
}

export const gleifRr: ImportSource = {
  name: 'gleif-rr',
  expects: EXPECTS,
  unit: 'record',
  memberPositions: ['parent_company'],
  read: (input) => byFirstByte(input, fromXml, fromCsv),
};
