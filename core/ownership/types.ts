// One ownership graph from every source (ADR 0038): GLEIF Level 2 relationships and reporting
// exceptions, the UK register of persons with significant control (PSC), and BODS statements when
// a BODS importer lands. These are the shapes the profile's Ownership section, the person page and
// the API (`GET /api/legal_entities/{id}/ownership`, BODS 0.4) read; core/ownership/ builds them.
//
// Ids are the database ids (legal_entities.id, members.id); paths are the pages without a language
// prefix (`/companies/details/{uri}/`, core/people/person-path.ts); a country is the ISO 3166-1
// two-letter code of the company's jurisdiction (locations.country_code) or of a person's
// nationality; a status is the statuses.uri of the company (`active`, …).

export type OwnershipSourceName = 'gleif' | 'psc' | 'bods';

/** Where a link comes from: the source, its record (an LEI pair, a PSC link, a statement id) and the day it states. */
export type OwnershipSource = { source: OwnershipSourceName; reference: string | null; date: string | null };

export type OwnerRef =
  | {
      kind: 'company';
      id: number;
      path: string;
      name: string;
      country: string | null;
      lei: string | null;
      status: string | null;
    }
  /** A company a source names (by LEI or name) that is not in Registra. */
  | { kind: 'unknown_company'; lei: string | null; name: string | null; country: string | null }
  | {
      kind: 'person';
      id: number | null;
      path: string | null;
      name: string;
      nationality: string | null;
      /** Year and month of birth as the source states it (`1970-04`, `1970`), or null. */
      birth: string | null;
    };

export type OwnershipRelation = 'direct_parent' | 'ultimate_parent' | 'beneficial_owner';

export type OwnershipLink = {
  owner: OwnerRef;
  relation: OwnershipRelation;
  /** PSC/BODS natures of control as the source words them. */
  natures: string[];
  /** Percent bands (25–50 → 25, 50); null when not stated. */
  shareMin: number | null;
  shareMax: number | null;
  /** GLEIF registration/validation state of the relationship (PUBLISHED, LAPSED, …). */
  validation: string | null;
  start: string | null;
  end: string | null;
  current: boolean;
  /** Two sources stating the same link: ONE link with both sources. */
  sources: OwnershipSource[];
  /** The sources disagree: what differs, as a code (`period`, `share`, `natures`, `current`). */
  disagreement: string | null;
};

export type ReportingException = {
  /** GLEIF's are of a parent; a BODS unspecified interested party is of the beneficial owners. */
  relation: 'direct_parent' | 'ultimate_parent' | 'beneficial_owner';
  /** NATURAL_PERSONS, NON_CONSOLIDATING, NO_KNOWN_PERSON, … (GLEIF); noBeneficialOwners, subjectExemptFromDisclosure, … (BODS) */
  reasons: string[];
  /** The source's own words for it (a BODS unspecified party's description), when it gives them. */
  description?: string | null;
  sources: OwnershipSource[];
};

/**
 * How the walk up ended: at a company with no parent (`ultimate_parent` when the chain has one,
 * `no_parent` when the company itself has none), a `cycle`, a parent named but not in Registra
 * (`missing_link`), or a reporting exception (`exception`).
 */
export type OwnershipChainEnd = 'ultimate_parent' | 'no_parent' | 'cycle' | 'missing_link' | 'exception';

export type Ownership = {
  /** chain[0] = the company's direct parent, then its parent… up to the top. */
  chain: OwnershipLink[];
  chainEnd: OwnershipChainEnd;
  /** As stated by the source (may differ from the chain's top: `ultimateParentDiffers`). */
  ultimateParent: OwnershipLink | null;
  /** The stated ultimate parent is not the top of the chain walked up. */
  ultimateParentDiffers: boolean;
  beneficialOwners: OwnershipLink[];
  exceptions: ReportingException[];
  directSubsidiaries: number;
  /** All subsidiaries, any depth. */
  groupSize: number;
};

export type GroupNode = {
  company: { id: number; path: string; name: string; country: string | null; status: string | null };
  parentId: number;
  /** 1 = a direct subsidiary of the group's company. */
  depth: number;
  childCount: number;
  sources: OwnershipSource[];
};

/** A page of a level: the cursors of the pages after and before it (null at an end), the level's size. */
export type GroupPage = { nodes: GroupNode[]; next: string | null; previous: string | null; total: number };

export type ControlledCompany = {
  company: { id: number; path: string; name: string; country: string | null };
  natures: string[];
  shareMin: number | null;
  shareMax: number | null;
  current: boolean;
  sources: OwnershipSource[];
};
