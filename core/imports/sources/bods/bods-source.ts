import {
  type CompanyKeys,
  type FactException,
  type FactMember,
  type ImportItem,
  type ImportSource,
  MalformedFileError,
} from '../../company-facts.ts';
import { companyRegisterKey, normaliseCompanyNumber } from '../companies-house/ch-companies-source.ts';
import {
  BODS_STATEMENTS,
  type BodsEntity,
  type BodsInterest,
  type BodsPerson,
  type BodsRelationship,
  type BodsStatement,
  readBodsStatements,
} from './read-bods-statements.ts';

// BODS statements onto CompanyFacts (ADR 0038 "BODS importer"): each subject entity Registra can
// match (its GB-COH identifier as the Companies House importer keys a company, its XI-LEI as an
// LEI) gets its interested parties as shareholder members — persons and entities, with their
// interest types as natures of control, the share they state, since/until — and its unspecified
// interested parties as reporting exceptions with their reasons. The members of this source replace
// only this source's (a PSC import's stay). A subject not in Registra is not created (the PSC
// importer does not create one either): the framework rejects it. An interested entity is linked to
// its company when Registra has it at the import (as a corporate PSC is); else it is a member with its
// name only (shown "not in Registra"), and stays so until BODS states the link again differently.
//
// Statements refer to each other anywhere in a file, so a file is read whole before anything is
// yielded, and a file with a bad statement (not JSON, wrong types, a reference to a statement the
// file has not) is refused whole: each bad statement is a reject with its line or number, and the
// import stops with nothing written (a company written without one of its owners would lose it).

/** The keys an entity names: GB-COH → the register key, XI-LEI → the LEI. */
function keysOf(entity: BodsEntity): CompanyKeys | null {
  const keys: CompanyKeys = {};
  for (const { scheme, id } of entity.identifiers) {
    if (scheme === 'GB-COH' && !keys.register) {
      const number = normaliseCompanyNumber(id);
      if (number) keys.register = companyRegisterKey(number);
    } else if (scheme === 'XI-LEI' && !keys.lei && /^[A-Z0-9]{18}[0-9]{2}$/.test(id.trim().toUpperCase()))
      keys.lei = id.trim().toUpperCase();
  }
  return keys.register || keys.lei ? keys : null;
}

const keyString = (keys: CompanyKeys) =>
  keys.register ? `register ${keys.register.number}` : `lei ${keys.lei as string}`;

/** The share of the first shareholding (else voting rights) interest that states one, as percent bounds. */
function shareOf(interests: BodsInterest[]): { shareMin: number | null; shareMax: number | null } {
  for (const type of ['shareholding', 'votingRights', 'voting-rights']) {
    const share = interests.find((i) => i.type === type && i.share)?.share;
    if (!share) continue;
    if (share.exact !== undefined) return { shareMin: share.exact, shareMax: share.exact };
    return {
      shareMin: share.minimum ?? share.exclusiveMinimum ?? null,
      shareMax: share.maximum ?? share.exclusiveMaximum ?? null,
    };
  }
  return { shareMin: null, shareMax: null };
}

const earliest = (days: (string | null)[]) => days.filter((d): d is string => d !== null).sort()[0] ?? null;
const latest = (days: (string | null)[]) =>
  days
    .filter((d): d is string => d !== null)
    .sort()
    .at(-1) ?? null;

function member(link: BodsRelationship, party: BodsEntity | BodsPerson): FactMember {
  const { interests } = link;
  // Ended: the record is closed, or every interest it states has ended.
  const ended = link.closed || (interests.length > 0 && interests.every((i) => i.endDate !== null));
  const until = ended ? (latest(interests.map((i) => i.endDate)) ?? link.date) : null;
  const natures = [...new Set(interests.flatMap((i) => (i.type ? [i.type] : [])))];
  const common = {
    position: 'shareholder' as const,
    since: earliest(interests.map((i) => i.startDate)),
    until,
    natures: natures.length > 0 ? natures : ['unknownInterest'],
    ...shareOf(interests),
  };
  if (party.kind === 'person')
    return {
      ...common,
      name: party.name ?? (party.personType === 'anonymousPerson' ? 'Anonymous person' : 'Unknown person'),
      kind: 'individual',
      country: party.nationality,
      born: party.born,
    };
  const keys = keysOf(party);
  return {
    ...common,
    name: party.name ?? (keys?.lei ? `LEI ${keys.lei}` : 'Unknown entity'),
    kind: party.entityType === 'stateBody' ? 'authority' : 'legal_entity',
    country: party.country,
    ...(keys
      ? { keys: { ...(keys.lei ? { lei: keys.lei } : {}), ...(keys.register ? { register: keys.register } : {}) } }
      : {}),
  };
}

/** The statement in force of each record: the latest by statement date (0.4), not replaced (0.2/0.3). */
function inForce(statements: BodsStatement[], replaced: Set<string>): Map<string, BodsStatement> {
  const byRef = new Map<string, BodsStatement>();
  for (const s of statements) {
    if (replaced.has(s.statementId)) continue;
    const before = byRef.get(s.ref);
    if (!before || (s.date ?? '') >= (before.date ?? '')) byRef.set(s.ref, s);
  }
  return byRef;
}

type Subject = {
  keys: CompanyKeys;
  at: number;
  unit: 'line' | 'record';
  date: string | null;
  members: FactMember[];
  exceptions: FactException[];
};

export const bodsSource: ImportSource = {
  name: 'bods',
  expects: BODS_STATEMENTS,
  unit: 'record',
  // BODS states who owns or controls a company: its shareholders (beside the PSC register's, not instead).
  memberPositions: ['shareholder'],
  async *read(input): AsyncGenerator<ImportItem> {
    const statements: BodsStatement[] = [];
    const replaced = new Set<string>();
    const bad: ImportItem[] = [];
    for await (const read of readBodsStatements(input)) {
      if (read.kind === 'bad') bad.push({ kind: 'reject', at: read.at, unit: read.unit, reason: read.reason });
      else {
        statements.push(read.statement);
        for (const id of read.replaces) replaced.add(id);
      }
    }
    const records = inForce(statements, replaced);
    const subjects = new Map<string, Subject>();
    const rejects: ImportItem[] = [];
    for (const link of records.values()) {
      if (link.kind !== 'relationship') continue;
      const where = { at: link.at, unit: link.unit };
      const subject = records.get(link.subject);
      if (subject?.kind !== 'entity') {
        bad.push({
          kind: 'reject',
          ...where,
          reason: `statement ${link.statementId}: its subject ${link.subject} is ${subject ? 'a person statement, not an entity statement' : 'no statement of the file'}`,
        });
        continue;
      }
      const party = typeof link.party === 'string' ? records.get(link.party) : null;
      if (typeof link.party === 'string' && (!party || party.kind === 'relationship')) {
        bad.push({
          kind: 'reject',
          ...where,
          reason: `statement ${link.statementId}: its interested party ${link.party} is ${party ? 'a relationship statement' : 'no statement of the file'}`,
        });
        continue;
      }
      // One key a subject is found by, the register's before the LEI: a record naming two keys that
      // name two companies would merge them (ADR 0014 "Merges"), which a BODS statement must not do.
      const named = keysOf(subject);
      const keys: CompanyKeys | null = named?.register ? { register: named.register } : named;
      if (!keys) {
        rejects.push({
          kind: 'reject',
          ...where,
          reason:
            `statement ${link.statementId}: its subject ${subject.name ?? subject.ref} has no GB-COH company number ` +
            'or XI-LEI identifier to find it in Registra by',
        });
        continue;
      }
      const key = keyString(keys);
      const entry = subjects.get(key) ?? { keys, ...where, date: null, members: [], exceptions: [] };
      subjects.set(key, entry);
      entry.date = latest([entry.date, link.date]);
      if (party && party.kind !== 'relationship') entry.members.push(member(link, party));
      else if (typeof link.party !== 'string')
        entry.exceptions.push({ reason: link.party.reason, description: link.party.description });
    }
    if (bad.length > 0) {
      yield* bad.sort((a, b) => a.at - b.at);
      const n = bad.length;
      throw new MalformedFileError(
        `${n.toLocaleString('en')} statement${n === 1 ? ' is' : 's are'} not readable (see the rejects: ` +
          'not JSON, wrong types, or a reference to a statement the file has not); a BODS file is imported whole or not at all.',
      );
    }
    yield* rejects;
    for (const s of subjects.values()) {
      const order = (m: FactMember) => `${m.name}\u0000${m.since ?? ''}\u0000${m.until ?? ''}`;
      yield {
        kind: 'company',
        at: s.at,
        unit: s.unit,
        facts: {
          keys: s.keys,
          sourceDate: s.date ? `${s.date}T00:00:00Z` : null,
          members: s.members.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)),
          reportingExceptions: s.exceptions,
        },
      };
    }
  },
};
