import { sourcePublisher } from '../../core/companies/company-history.ts';
import { describeControlNature } from '../../core/companies/control-natures.ts';
import { AppError } from '../../core/errors/app-error.ts';
import { controlledBy, groupPage, ownershipOf } from '../../core/ownership/ownership.ts';
import type {
  ControlledCompany,
  GroupPage,
  OwnerRef,
  Ownership,
  OwnershipLink,
  OwnershipSource,
  ReportingException,
} from '../../core/ownership/types.ts';
import { flagCodeOf, locationOfCode } from '../../core/reference/reference-data.ts';
import { findVisibleCompany } from '../../core/takedowns/visible.ts';
import type { Db } from '../../db/client.ts';
import {
  type ConnectionsGraph,
  type GraphEdgeInput,
  type GraphNodeInput,
  layoutConnections,
} from './connections-graph.server.ts';
import type { Presenter } from './present.server.ts';

// The Ownership section of the profile and the person page's "Companies they control" (ADR 0038,
// "Display"): the chain up to the ultimate parent with how it ended in words, the beneficial
// owners, the reporting exceptions, and the group below browsed level by level — drawn as the
// connections graph is (app/presenters/connections-graph.server.ts lays it out) and said as a
// plain list beside the picture. The data comes from core/ownership; this file only words it.

/** A company, person or unnamed company as a line shows it: its name, its page, its country. */
export type OwnerView = {
  kind: OwnerRef['kind'];
  text: string;
  href?: string;
  flag?: string;
  /** Country, LEI, birth: what tells this owner apart. */
  note?: string;
};

/** One link of the chain, the stated ultimate parent or a beneficial owner, in words. */
export type OwnershipLinkView = {
  key: string;
  owner: OwnerView;
  /** "Direct parent of X", "Ultimate parent", "Beneficial owner". */
  relation: string;
  natures: string[];
  share: string | null;
  period: string | null;
  current: boolean;
  /** "Current" or "Former". */
  currentText: string;
  /** GLEIF's state of the relationship in words ("Published"), when GLEIF states it. */
  validation: string | null;
  /** "GLEIF, ref …, 5 May 2024; Companies House (PSC register), 1 Jun 2024": every source once. */
  sources: string;
  /** What the sources disagree on, in words; null when they agree (or there is one). */
  disagreement: string | null;
};

export type ExceptionView = { key: string; relation: string; reasons: string; sources: string };

/** A subsidiary on the page of the group being browsed. */
export type GroupNodeView = {
  key: string;
  company: OwnerView;
  status: string;
  /** "3 subsidiaries", or null when it has none. */
  childrenText: string | null;
  /** This subsidiary's own subsidiaries, one level down (a link: no script needed). */
  childrenHref: string | null;
  sources: string;
};

export type GroupView = {
  /** "143 companies in the group below, 12 of them direct subsidiaries". */
  summary: string;
  /** From the company down to the level shown: the way back up, each a link but the last. */
  trail: { key: string; text: string; href: string | null }[];
  /** The level's title: "Subsidiaries of X". */
  levelTitle: string;
  nodes: GroupNodeView[];
  /** "Showing 20 of 143 at this level". */
  shownText: string;
  nextHref: string | null;
  /** The page before this one, when there is one. */
  previousHref: string | null;
  /** Back to this level's first page, when a later page is shown. */
  firstHref: string | null;
};

export type OwnershipView = {
  /** Nothing known: no parent, no owner, no exception, no subsidiary. */
  empty: boolean;
  chain: OwnershipLinkView[];
  /** How the walk up ended, in words. */
  chainEnd: { code: Ownership['chainEnd']; text: string };
  /** The ultimate parent as its source states it, and whether that differs from the top of the chain. */
  ultimateParent: { link: OwnershipLinkView; differs: string | null } | null;
  beneficialOwners: OwnershipLinkView[];
  exceptions: ExceptionView[];
  group: GroupView | null;
  /** The picture (parents, owners and the first subsidiaries around the company); null when there is nobody to draw. */
  graph: ConnectionsGraph | null;
};

/** The company whose profile it is. */
export type OwnedCompany = { id: number; name: string; path: string };

/** The level of the group being browsed: its page and the way down to it. */
export type GroupLevel = {
  page: GroupPage;
  /** From the company (first) down to the company whose subsidiaries the page lists (last). */
  trail: OwnedCompany[];
};

/** The most subsidiaries on one page of the group. */
export const GROUP_PAGE_SIZE = 20;
/** The subsidiaries drawn in the picture (the list pages through all of them). */
const GRAPH_SUBSIDIARIES = 12;

/** A source in words: its publisher, its record and its day. */
export function sourceText(s: OwnershipSource, p: Presenter): string {
  const publisher =
    s.source === 'gleif'
      ? sourcePublisher('gleif-rr')
      : s.source === 'psc'
        ? p.t('ownership.source.psc', { publisher: sourcePublisher('ch-psc') })
        : p.t('ownership.source.bods');
  return [publisher, s.reference, s.date ? p.date(s.date) : null].filter(Boolean).join(', ');
}

/** Every source once, in the order given (two sources of one link are one link with both). */
export function sourcesText(sources: readonly OwnershipSource[], p: Presenter): string {
  const texts = [...new Set(sources.map((s) => sourceText(s, p)))];
  return texts.length === 0 ? '' : p.t('profile.sources', { sources: texts.join('; '), count: texts.length });
}

/** A percent band: "25–50 %", "over 25 %", "up to 50 %"; null when none is stated. */
export function shareText(min: number | null, max: number | null, p: Presenter): string | null {
  if (min !== null && max !== null)
    return min === max
      ? p.t('ownership.share.exact', { value: p.number(min) })
      : p.t('ownership.share.range', { min: p.number(min), max: p.number(max) });
  if (min !== null) return p.t('ownership.share.over', { min: p.number(min) });
  if (max !== null) return p.t('ownership.share.upTo', { max: p.number(max) });
  return null;
}

function periodText(start: string | null, end: string | null, p: Presenter): string | null {
  if (start && end) return p.t('ownership.period.between', { start: p.date(start), end: p.date(end) });
  if (start) return p.t('ownership.period.since', { start: p.date(start) });
  if (end) return p.t('ownership.period.until', { end: p.date(end) });
  return null;
}

function countryOf(code: string | null, p: Presenter): { text: string; flag?: string } | null {
  if (!code) return null;
  const location = locationOfCode(p.reference, code);
  if (!location) return { text: code };
  return { text: p.name(location), flag: flagCodeOf(p.reference, location.id) || undefined };
}

export function ownerView(owner: OwnerRef, p: Presenter): OwnerView {
  if (owner.kind === 'company') {
    const country = countryOf(owner.country, p);
    return {
      kind: owner.kind,
      text: owner.name,
      href: p.path(owner.path),
      flag: country?.flag,
      note: [country?.text, owner.lei ? `LEI ${owner.lei}` : null].filter(Boolean).join(' · ') || undefined,
    };
  }
  if (owner.kind === 'unknown_company') {
    const country = countryOf(owner.country, p);
    return {
      kind: owner.kind,
      text: owner.name ?? (owner.lei ? `LEI ${owner.lei}` : p.t('ownership.unnamed')),
      flag: country?.flag,
      note:
        [country?.text, owner.name && owner.lei ? `LEI ${owner.lei}` : null, p.t('ownership.notInRegistra')]
          .filter(Boolean)
          .join(' · ') || undefined,
    };
  }
  const nationality = countryOf(owner.nationality, p);
  return {
    kind: owner.kind,
    text: owner.name,
    href: owner.path ? p.path(owner.path) : undefined,
    flag: nationality?.flag,
    note:
      [
        nationality ? p.t('ownership.nationality', { country: nationality.text }) : null,
        owner.birth ? p.t('people.born', { date: p.date(owner.birth) }) : null,
      ]
        .filter(Boolean)
        .join(' · ') || undefined,
  };
}

function linkView(link: OwnershipLink, key: string, relation: string, p: Presenter): OwnershipLinkView {
  return {
    key,
    owner: ownerView(link.owner, p),
    relation,
    natures: link.natures.map((code) => describeControlNature(code, p.t)),
    share: shareText(link.shareMin, link.shareMax, p),
    period: periodText(link.start, link.end, p),
    current: link.current,
    currentText: link.current ? p.t('ownership.current') : p.t('ownership.former'),
    validation: link.validation ? p.code('ownership.validation', link.validation) : null,
    sources: sourcesText(link.sources, p),
    disagreement: link.disagreement
      ? p.t('ownership.disagreement', { what: p.code('ownership.disagreementOn', link.disagreement) })
      : null,
  };
}

/** The name a node of the picture and a line of the list know an owner by. */
function ownerKey(owner: OwnerRef): string {
  if (owner.kind === 'company') return `c${owner.id}`;
  if (owner.kind === 'person') return owner.id !== null ? `m${owner.id}` : `p${owner.name}`;
  return `u${owner.lei ?? owner.name ?? '?'}`;
}

function exceptionView(e: ReportingException, i: number, p: Presenter): ExceptionView {
  return {
    key: `exception-${i}`,
    relation: p.t(`ownership.exception.${e.relation}`),
    reasons:
      e.reasons.length === 0
        ? p.t('ownership.exception.noReason')
        : e.reasons.map((reason) => p.code('profile.exceptionReason', reason)).join(', '),
    sources: sourcesText(e.sources, p),
  };
}

/** How the walk up ended, said in words. */
function chainEndText(company: OwnedCompany, ownership: Ownership, p: Presenter): string {
  const t = p.t;
  const top = ownership.chain.at(-1);
  const topName = top ? ownerView(top.owner, p).text : company.name;
  switch (ownership.chainEnd) {
    case 'no_parent':
      return t('ownership.end.no_parent', { name: company.name });
    case 'ultimate_parent':
      return t('ownership.end.ultimate_parent', { name: topName });
    case 'cycle':
      return t('ownership.end.cycle', { name: topName });
    case 'missing_link': {
      const sources = top?.sources.map((s) => sourceText({ ...s, reference: null, date: null }, p)) ?? [];
      return t('ownership.end.missing_link', {
        name: topName,
        source: [...new Set(sources)].join(', ') || sourcePublisher('gleif-rr'),
      });
    }
    case 'exception': {
      const reasons = ownership.exceptions.flatMap((e) => e.reasons);
      return reasons.length === 0
        ? t('ownership.end.exception', { name: topName })
        : t('ownership.end.exceptionReasons', {
            name: topName,
            reasons: [...new Set(reasons)].map((r) => p.code('profile.exceptionReason', r)).join(', '),
          });
    }
  }
}

/** The profile's address with the group browsed at `parentId` (page `cursor`), landing on the group. */
export function groupHref(company: OwnedCompany, p: Presenter, parentId: number | null, cursor: string | null): string {
  const query = new URLSearchParams();
  if (parentId !== null && parentId !== company.id) query.set('group_parent', String(parentId));
  if (cursor) query.set('group_cursor', cursor);
  const search = query.toString();
  return `${p.path(company.path)}${search ? `?${search}` : ''}#ownership-group`;
}

function groupView(company: OwnedCompany, ownership: Ownership, level: GroupLevel, p: Presenter): GroupView {
  const t = p.t;
  const parent = level.trail.at(-1) ?? company;
  const { page } = level;
  return {
    summary: t('ownership.group.summary', {
      count: ownership.groupSize,
      total: p.number(ownership.groupSize),
      direct: p.number(ownership.directSubsidiaries),
    }),
    trail: level.trail.map((c, i) => ({
      key: `trail-${c.id}`,
      text: c.name,
      href: i === level.trail.length - 1 ? null : groupHref(company, p, c.id, null),
    })),
    levelTitle: t('ownership.group.level', { name: parent.name }),
    nodes: page.nodes.map((node) => {
      const country = countryOf(node.company.country, p);
      return {
        key: `group-${node.company.id}`,
        company: {
          kind: 'company',
          text: node.company.name,
          href: p.path(node.company.path),
          flag: country?.flag,
          note: country?.text,
        },
        status: node.company.status
          ? p.name(p.reference.statuses.byUri.get(node.company.status)) || node.company.status
          : '',
        childrenText:
          node.childCount > 0
            ? t('ownership.group.children', { count: node.childCount, n: p.number(node.childCount) })
            : null,
        childrenHref: node.childCount > 0 ? groupHref(company, p, node.company.id, null) : null,
        sources: sourcesText(node.sources, p),
      };
    }),
    shownText: t('ownership.group.shown', {
      count: page.total,
      shown: p.number(page.nodes.length),
      total: p.number(page.total),
    }),
    nextHref: page.next ? groupHref(company, p, parent.id, page.next) : null,
    previousHref: page.previous ? groupHref(company, p, parent.id, page.previous) : null,
    firstHref: page.previous ? groupHref(company, p, parent.id, null) : null,
  };
}

/** The picture: the parents up the chain, the stated ultimate parent, the owners, the first subsidiaries. */
function ownershipGraph(
  company: OwnedCompany,
  ownership: Ownership,
  level: GroupLevel | null,
  p: Presenter,
): ConnectionsGraph | null {
  const t = p.t;
  const focus = `c${company.id}`;
  const nodes: GraphNodeInput[] = [{ id: focus, label: company.name, kind: 'company' }];
  const edges: GraphEdgeInput[] = [];
  const node = (owner: OwnerRef) => {
    const view = ownerView(owner, p);
    const id = ownerKey(owner);
    nodes.push({ id, label: view.text, kind: owner.kind === 'person' ? 'person' : 'company', href: view.href });
    return id;
  };
  let below = focus;
  for (const link of ownership.chain) {
    const id = node(link.owner);
    edges.push({ from: id, to: below, label: t('ownership.relation.direct_parent') });
    below = id;
  }
  if (ownership.ultimateParent && ownership.ultimateParentDiffers)
    edges.push({
      from: node(ownership.ultimateParent.owner),
      to: focus,
      label: t('ownership.relation.ultimate_parent'),
    });
  for (const link of ownership.beneficialOwners)
    edges.push({ from: node(link.owner), to: focus, label: t('ownership.relation.beneficial_owner') });
  // The first subsidiaries of the company itself (a deeper level is the list's to browse).
  if (level && level.trail.length <= 1)
    for (const sub of level.page.nodes.slice(0, GRAPH_SUBSIDIARIES)) {
      const id = `c${sub.company.id}`;
      nodes.push({ id, label: sub.company.name, kind: 'company', href: p.path(sub.company.path) });
      edges.push({ from: focus, to: id, label: t('ownership.relation.subsidiary') });
    }
  return layoutConnections(focus, nodes, edges);
}

/** The Ownership section of a company's profile, in words and as a picture. */
export function presentOwnership(
  company: OwnedCompany,
  ownership: Ownership,
  level: GroupLevel | null,
  p: Presenter,
): OwnershipView {
  const t = p.t;
  const chain = ownership.chain.map((link, i) => {
    const child = i === 0 ? company.name : ownerView(ownership.chain[i - 1].owner, p).text;
    return linkView(link, `chain-${i}`, t('ownership.parentOf', { name: child }), p);
  });
  const ultimate = ownership.ultimateParent;
  const empty =
    ownership.chain.length === 0 &&
    ultimate === null &&
    ownership.beneficialOwners.length === 0 &&
    ownership.exceptions.length === 0 &&
    ownership.groupSize === 0 &&
    (level === null || level.page.total === 0);
  return {
    empty,
    chain,
    chainEnd: { code: ownership.chainEnd, text: chainEndText(company, ownership, p) },
    ultimateParent: ultimate
      ? {
          link: linkView(ultimate, 'ultimate', t('ownership.relation.ultimate_parent'), p),
          differs: ownership.ultimateParentDiffers
            ? t('ownership.ultimateDiffers', {
                name: ownerView(ultimate.owner, p).text,
                top:
                  ownership.chain.length > 0
                    ? ownerView((ownership.chain.at(-1) as OwnershipLink).owner, p).text
                    : company.name,
              })
            : null,
        }
      : null,
    beneficialOwners: ownership.beneficialOwners.map((link, i) =>
      linkView(link, `owner-${i}`, t('ownership.relation.beneficial_owner'), p),
    ),
    exceptions: ownership.exceptions.map((e, i) => exceptionView(e, i, p)),
    group: level && (level.page.total > 0 || level.trail.length > 1) ? groupView(company, ownership, level, p) : null,
    graph: ownershipGraph(company, ownership, level, p),
  };
}

/** A company a person controls, as the person page lists it. */
export type ControlledView = {
  key: string;
  company: OwnerView;
  natures: string[];
  share: string | null;
  current: boolean;
  currentText: string;
  sources: string;
};

/** The person page's "Companies they control": current ones first, then former ones. */
export function presentControlled(companies: readonly ControlledCompany[], p: Presenter): ControlledView[] {
  return [...companies]
    .sort((a, b) => Number(b.current) - Number(a.current))
    .map((c, i) => {
      const country = countryOf(c.company.country, p);
      return {
        key: `controlled-${c.company.id}-${i}`,
        company: {
          kind: 'company',
          text: c.company.name,
          href: p.path(c.company.path),
          flag: country?.flag,
          note: country?.text,
        },
        natures: c.natures.map((code) => describeControlNature(code, p.t)),
        share: shareText(c.shareMin, c.shareMax, p),
        current: c.current,
        currentText: c.current ? p.t('ownership.current') : p.t('ownership.former'),
        sources: sourcesText(c.sources, p),
      };
    });
}

/** The level of the group the profile's address asks for: `?group_parent={id}&group_cursor={cursor}`. */
export type GroupQuery = { parent: number | null; cursor: string | null };

/** The group's level and page from the profile's address; a 400 naming the parameter when it is not one. */
export function groupQuery(url: URL): GroupQuery {
  const rawParent = url.searchParams.get('group_parent');
  const rawCursor = url.searchParams.get('group_cursor');
  let parent: number | null = null;
  if (rawParent !== null && rawParent !== '') {
    parent = /^\d{1,15}$/.test(rawParent) ? Number(rawParent) : Number.NaN;
    if (!Number.isSafeInteger(parent) || parent < 1)
      throw new AppError('bad_request', 'group_parent must be the id of a company in the group', {
        group_parent: rawParent,
      });
  }
  if (rawCursor !== null && rawCursor.length > 1000)
    throw new AppError('bad_request', 'group_cursor is not one this list gave', {
      group_cursor: rawCursor.slice(0, 40),
    });
  return { parent, cursor: rawCursor || null };
}

/**
 * The Ownership section of a company's profile: what core/ownership knows of it (takedowns applied
 * there), with the group browsed at the level and page `query` asks for. A level below the company
 * must be a company of its group (a 400 otherwise); its way down is the chain up from it.
 */
export async function loadOwnership(
  db: Db,
  p: Presenter,
  company: OwnedCompany,
  query: GroupQuery,
): Promise<OwnershipView> {
  const parentId = query.parent ?? company.id;
  const [ownership, page, trail] = await Promise.all([
    ownershipOf(db, company.id),
    groupPage(db, company.id, { parentId, cursor: query.cursor, limit: GROUP_PAGE_SIZE }),
    parentId === company.id ? Promise.resolve([company]) : trailTo(db, company, parentId),
  ]);
  if (!trail)
    throw new AppError('bad_request', 'group_parent must be the id of a company in the group', {
      group_parent: parentId,
    });
  return presentOwnership(company, ownership, { page, trail }, p);
}

/** From the company down to `parentId` (a company of its group): the chain up from there, reversed; null when it is not in the group. */
async function trailTo(db: Db, company: OwnedCompany, parentId: number): Promise<OwnedCompany[] | null> {
  const target = await findVisibleCompany(db, parentId);
  if (!target) return null;
  const up = await ownershipOf(db, parentId);
  const above: OwnedCompany[] = [];
  for (const link of up.chain) {
    if (link.owner.kind !== 'company') return null;
    if (link.owner.id === company.id) {
      const path = `/companies/details/${encodeURIComponent(target.uri)}/`;
      return [company, ...above.reverse(), { id: target.id, name: target.name, path }];
    }
    above.push({ id: link.owner.id, name: link.owner.name, path: link.owner.path });
  }
  return null;
}

/** The person page's "Companies they control" (takedowns applied by core/ownership). */
export async function loadControlled(db: Db, p: Presenter, personId: number): Promise<ControlledView[]> {
  return presentControlled(await controlledBy(db, personId), p);
}
