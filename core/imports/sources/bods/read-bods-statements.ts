import { Readable } from 'node:stream';
import { z } from 'zod';
import { describeIssues, WrongFileError } from '../../company-facts.ts';
import { NotJsonError, readJsonDocuments } from '../../json-documents.ts';
import { readJsonLines } from '../../json-lines.ts';
import { isoDateValue, nullableText } from '../../source-values.ts';

// Beneficial Ownership Data Standard statements (ADR 0038 "BODS importer"), read into one shape
// whatever the version: 0.4 (recordType entity|person|relationship, recordId, recordDetails,
// relationships naming their subject and interested party by recordId) and 0.2/0.3 (statementType
// entityStatement|personStatement|ownershipOrControlStatement, statementID, the subject and the
// interested party described by statement id, `unspecified` for a reporting exception). A file is
// a JSON array of statements or JSON Lines (one statement a line).

export const BODS_STATEMENTS = 'BODS statements (a JSON array or JSON Lines of statements, version 0.2 to 0.4)';

const text = nullableText;
const date = isoDateValue;
const percent = z.number().min(0).max(100);

const shareSchema = z
  .object({
    exact: percent,
    minimum: percent,
    maximum: percent,
    exclusiveMinimum: percent,
    exclusiveMaximum: percent,
  })
  .partial();

const interestSchema = z.object({
  type: text,
  directOrIndirect: text,
  beneficialOwnershipOrControl: z.boolean().nullish(),
  share: shareSchema.nullish(),
  startDate: date,
  endDate: date,
});

const identifierSchema = z.object({ id: text, scheme: text }).partial();
const jurisdictionSchema = z.object({ code: text, name: text }).partial().nullish();
const personNameSchema = z.object({ type: text, fullName: text, givenName: text, familyName: text }).partial();

const entityFields = {
  name: text,
  identifiers: z.array(identifierSchema).nullish(),
  jurisdiction: jurisdictionSchema,
  incorporatedInJurisdiction: jurisdictionSchema,
};
const personFields = {
  personType: text,
  names: z.array(personNameSchema).nullish(),
  nationalities: z.array(z.object({ code: text }).partial()).nullish(),
  birthDate: text,
};
const unspecifiedSchema = z.object({ reason: z.string().trim().min(1, 'is empty'), description: text });

/** BODS 0.4: a statement of a record (entity, person or relationship). */
const v04Schema = z.discriminatedUnion('recordType', [
  z.object({
    recordType: z.literal('entity'),
    statementId: z.string().min(1),
    statementDate: date,
    recordId: z.string().min(1),
    recordStatus: text,
    recordDetails: z.object({ entityType: z.object({ type: text }).nullish(), ...entityFields }),
  }),
  z.object({
    recordType: z.literal('person'),
    statementId: z.string().min(1),
    statementDate: date,
    recordId: z.string().min(1),
    recordStatus: text,
    recordDetails: z.object(personFields),
  }),
  z.object({
    recordType: z.literal('relationship'),
    statementId: z.string().min(1),
    statementDate: date,
    recordId: z.string().min(1),
    recordStatus: text,
    recordDetails: z.object({
      subject: z.string().min(1),
      interestedParty: z.union([z.string().min(1), unspecifiedSchema]),
      interests: z.array(interestSchema).nullish(),
    }),
  }),
]);

/** BODS 0.2/0.3: `statementID` (0.1 and 0.2 also wrote `statementId`). */
const oldBase = {
  statementID: z.string().min(1),
  statementDate: date,
  replacesStatements: z.array(z.string()).nullish(),
};
const oldSchema = z.discriminatedUnion('statementType', [
  z.object({ statementType: z.literal('entityStatement'), ...oldBase, entityType: text, ...entityFields }),
  z.object({ statementType: z.literal('personStatement'), ...oldBase, ...personFields }),
  z.object({
    statementType: z.literal('ownershipOrControlStatement'),
    ...oldBase,
    subject: z.object({ describedByEntityStatement: z.string().min(1) }),
    interestedParty: z
      .object({
        describedByPersonStatement: z.string().min(1),
        describedByEntityStatement: z.string().min(1),
        unspecified: unspecifiedSchema,
      })
      .partial()
      .refine(
        (p) => [p.describedByPersonStatement, p.describedByEntityStatement, p.unspecified].filter(Boolean).length === 1,
        'names no one: one of describedByPersonStatement, describedByEntityStatement or unspecified is needed',
      ),
    interests: z.array(interestSchema).nullish(),
  }),
]);

export type BodsInterest = z.infer<typeof interestSchema>;

/** Where a statement is in its file: the line (JSON Lines) or the statement's number (a JSON array). */
export type BodsPlace = { at: number; unit: 'line' | 'record'; statementId: string };

export type BodsEntity = BodsPlace & {
  kind: 'entity';
  /** The id relationships name it by: its recordId (0.4) or statementID (0.2/0.3). */
  ref: string;
  date: string | null;
  name: string | null;
  /** BODS entity type (registeredEntity, legalEntity, arrangement, stateBody, …). */
  entityType: string | null;
  /** ISO 3166-1 alpha-2 of its jurisdiction (of an ISO 3166-2 code: its country). */
  country: string | null;
  identifiers: { scheme: string; id: string }[];
};

export type BodsPerson = BodsPlace & {
  kind: 'person';
  ref: string;
  date: string | null;
  name: string | null;
  personType: string | null;
  nationality: string | null;
  born: { year: number; month: number } | null;
};

export type BodsRelationship = BodsPlace & {
  kind: 'relationship';
  ref: string;
  date: string | null;
  subject: string;
  /** The interested party's ref, or why none is named (a reporting exception). */
  party: string | { reason: string; description: string | null };
  interests: BodsInterest[];
  /** 0.4 recordStatus `closed`: the relationship has ended. */
  closed: boolean;
};

export type BodsStatement = BodsEntity | BodsPerson | BodsRelationship;

/** One statement of the file read, or why it cannot be (with where it is). */
export type BodsRead =
  | { kind: 'statement'; statement: BodsStatement; replaces: string[] }
  | { kind: 'bad'; at: number; unit: 'line' | 'record'; reason: string };

const country = (code: string | null | undefined) => {
  const c = code?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}(-|$)/.test(c) ? c.slice(0, 2) : null;
};

function personName(names: z.infer<typeof personNameSchema>[] | null | undefined): string | null {
  const list = names ?? [];
  const best = list.find((n) => n.type === 'legal' || n.type === 'individual') ?? list[0];
  if (!best) return null;
  return best.fullName ?? ([best.givenName, best.familyName].filter(Boolean).join(' ') || null);
}

/** `1978-07`, `1978-07-15` → year and month (the day is never kept: privacy); a year alone is not kept. */
function born(value: string | null): BodsPerson['born'] {
  const m = /^(\d{4})-(\d{2})/.exec(value ?? '');
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  return month >= 1 && month <= 12 && year >= 1800 && year <= 2200 ? { year, month } : null;
}

const identifiers = (list: z.infer<typeof identifierSchema>[] | null | undefined) =>
  (list ?? []).flatMap((i) => (i.id && i.scheme ? [{ scheme: i.scheme.toUpperCase(), id: i.id }] : []));

/** A parsed value as a statement of either version, or the reason it is none. */
function statementOf(value: unknown, at: number, unit: 'line' | 'record'): BodsRead {
  const bad = (reason: string): BodsRead => ({ kind: 'bad', at, unit, reason });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('not a statement (an object)');
  const v = value as Record<string, unknown>;
  if ('recordType' in v) {
    const parsed = v04Schema.safeParse(v);
    if (!parsed.success) return bad(`statement ${String(v.statementId ?? '?')}: ${describeIssues(parsed.error)}`);
    const s = parsed.data;
    const place = { at, unit, statementId: s.statementId, ref: s.recordId, date: s.statementDate };
    switch (s.recordType) {
      case 'entity': {
        const d = s.recordDetails;
        return {
          kind: 'statement',
          replaces: [],
          statement: {
            kind: 'entity',
            ...place,
            name: d.name,
            entityType: d.entityType?.type ?? null,
            country: country(d.jurisdiction?.code ?? d.incorporatedInJurisdiction?.code),
            identifiers: identifiers(d.identifiers),
          },
        };
      }
      case 'person': {
        const d = s.recordDetails;
        return {
          kind: 'statement',
          replaces: [],
          statement: {
            kind: 'person',
            ...place,
            name: personName(d.names),
            personType: d.personType,
            nationality: country(d.nationalities?.[0]?.code),
            born: born(d.birthDate),
          },
        };
      }
      case 'relationship': {
        const d = s.recordDetails;
        return {
          kind: 'statement',
          replaces: [],
          statement: {
            kind: 'relationship',
            ...place,
            subject: d.subject,
            party:
              typeof d.interestedParty === 'string'
                ? d.interestedParty
                : { reason: d.interestedParty.reason, description: d.interestedParty.description },
            interests: d.interests ?? [],
            closed: s.recordStatus === 'closed',
          },
        };
      }
    }
  }
  if ('statementType' in v) {
    // 0.1/0.2 files wrote `statementId` where 0.3 has `statementID`.
    const normalised = 'statementID' in v || !('statementId' in v) ? v : { ...v, statementID: v.statementId };
    const parsed = oldSchema.safeParse(normalised);
    if (!parsed.success)
      return bad(`statement ${String(normalised.statementID ?? '?')}: ${describeIssues(parsed.error)}`);
    const s = parsed.data;
    const place = { at, unit, statementId: s.statementID, ref: s.statementID, date: s.statementDate };
    const replaces = s.replacesStatements ?? [];
    switch (s.statementType) {
      case 'entityStatement':
        return {
          kind: 'statement',
          replaces,
          statement: {
            kind: 'entity',
            ...place,
            name: s.name,
            entityType: s.entityType,
            country: country(s.incorporatedInJurisdiction?.code ?? s.jurisdiction?.code),
            identifiers: identifiers(s.identifiers),
          },
        };
      case 'personStatement':
        return {
          kind: 'statement',
          replaces,
          statement: {
            kind: 'person',
            ...place,
            name: personName(s.names),
            personType: s.personType,
            nationality: country(s.nationalities?.[0]?.code),
            born: born(s.birthDate),
          },
        };
      case 'ownershipOrControlStatement': {
        const p = s.interestedParty;
        return {
          kind: 'statement',
          replaces,
          statement: {
            kind: 'relationship',
            ...place,
            subject: s.subject.describedByEntityStatement,
            party:
              p.describedByPersonStatement ??
              p.describedByEntityStatement ??
              (p.unspecified as { reason: string; description: string | null }),
            interests: s.interests ?? [],
            closed: false,
          },
        };
      }
    }
  }
  return bad('neither a BODS 0.4 statement (recordType) nor a 0.2/0.3 one (statementType)');
}

/** The input with its first non-blank character found: `[` is a JSON array, anything else JSON Lines. */
async function peek(input: Readable): Promise<{ first: string | null; stream: Readable }> {
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const head: (Buffer | string)[] = [];
  let first: string | null = null;
  while (first === null) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
    const found = /[^\s\uFEFF]/.exec(head.map(String).join(''));
    if (found) first = found[0];
  }
  async function* rest() {
    yield* head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { first, stream: Readable.from(rest(), { objectMode: false }) };
}

/**
 * Each statement of a BODS file, read (0.4 or 0.2/0.3), or why it cannot be. Throws WrongFileError
 * when the file is empty or its first statement is not a BODS statement.
 */
export async function* readBodsStatements(input: Readable): AsyncGenerator<BodsRead> {
  const { first, stream } = await peek(input);
  if (first === null) throw new WrongFileError(BODS_STATEMENTS, 'the file is empty');
  const unit = first === '[' ? 'record' : 'line';
  const entries =
    unit === 'record'
      ? (async function* () {
          try {
            for await (const d of readJsonDocuments(stream))
              yield 'error' in d ? { at: d.record, error: d.error } : { at: d.record, value: d.value };
          } catch (error) {
            if (error instanceof NotJsonError) throw new WrongFileError(BODS_STATEMENTS, `the file ${error.message}`);
            throw error;
          }
        })()
      : (async function* () {
          for await (const l of readJsonLines(stream))
            yield 'error' in l ? { at: l.line, error: l.error } : { at: l.line, value: l.value };
        })();
  let seenFirst = false;
  for await (const entry of entries) {
    const read: BodsRead =
      'error' in entry
        ? { kind: 'bad', at: entry.at, unit, reason: entry.error as string }
        : statementOf(entry.value, entry.at, unit);
    if (!seenFirst) {
      seenFirst = true;
      const v = 'value' in entry ? (entry.value as Record<string, unknown> | null) : null;
      const looksBods = typeof v === 'object' && v !== null && ('recordType' in v || 'statementType' in v);
      if (!looksBods)
        throw new WrongFileError(
          BODS_STATEMENTS,
          `${unit} ${entry.at} is ${'error' in entry ? entry.error : 'not a statement (no recordType or statementType)'}`,
        );
    }
    yield read;
  }
}
