import { isActive } from '../../core/companies/company-status.ts';
import { describeControlNature } from '../../core/companies/control-natures.ts';
import { getPerson, type Person } from '../../core/people/get-person.ts';
import { formatMonthYear } from '../../core/people/person-lines.ts';
import { personPath } from '../../core/people/person-path.ts';
import { unlockedFor, visibleMemberContacts } from '../../core/purchases/paywall.ts';
import type { Lang } from '../../core/reference/reference-data.ts';
import type { AppServices } from '../services.ts';
import {
  type ConnectionsGraph,
  type GraphEdgeInput,
  type GraphNodeInput,
  layoutConnections,
} from './connections-graph.server.ts';
import { type Cell, presenter } from './present.server.ts';

// The person page (/members/details/{name}/{id}/, spec §2, ADR 0022): a member's names, positions
// across companies with dates, contacts and country, and who they are connected to.

export type PersonPosition = {
  key: string;
  company: Cell;
  position: string;
  since: string;
  until: string;
  note?: string;
  jurisdiction: Cell;
};

export type PersonPage = {
  id: number;
  name: string;
  /** The page's own path (without language prefix): the canonical one. */
  path: string;
  kind: string;
  facts: { label: string; value: string; href?: string; flag?: string }[];
  /** Current positions (no end date, at an active company), then the others. */
  current: PersonPosition[];
  past: PersonPosition[];
  contacts: { label: string; value: string; href?: string }[];
  graph: ConnectionsGraph | null;
  description: string;
};

/** The page of the member with this id, or null. */
export async function loadPersonPage(
  services: AppServices,
  lang: Lang,
  id: number,
  viewer?: number,
): Promise<PersonPage | null> {
  const person = await getPerson(services.db, id);
  if (!person) return null;
  // Their emails and phone numbers once the viewer bought a company they sit on (ADR 0029).
  const companies = person.positions.map((x) => x.company_id);
  const unlocked = await unlockedFor(services.db, viewer, companies);
  return presentPerson(services, lang, {
    ...person,
    contacts: visibleMemberContacts(unlocked, companies, person.contacts),
  });
}

function presentPerson(services: AppServices, lang: Lang, person: Person): PersonPage {
  const { reference } = services;
  const p = presenter(reference, lang);
  const t = p.t;
  const positionName = (id: number) => p.name(reference.positions.byId.get(id));
  const positions = person.positions.map((x, i) => ({
    // A position is past when it ended, or when its company is no longer active (a register drops
    // the officers of a dissolved company without saying when they left).
    active: isActive(x.status_id) && x.until === null,
    row: {
      key: `${x.company_id}-${x.position_id}-${i}`,
      company: { text: x.name, href: p.companyHref(x.uri), tone: p.status(x.status_id).tone },
      position: positionName(x.position_id),
      since: p.date(x.since),
      until: p.date(x.until),
      note: (x.natures ?? []).map((code) => describeControlNature(code, t)).join(' · ') || undefined,
      jurisdiction: p.jurisdiction(x.jurisdiction_id),
    },
  }));
  const names = [person.first_name, person.middle_name, person.last_name].filter(Boolean).join(' ');
  const facts = [
    { label: t('people.kind'), value: t(`people.kinds.${person.name_type}`) },
    ...(names && names !== person.name ? [{ label: t('people.names'), value: names }] : []),
    ...(person.postfix ? [{ label: t('people.postfix'), value: person.postfix }] : []),
    ...(person.country_id
      ? [
          {
            label: t('people.country'),
            value: p.jurisdiction(person.country_id).text,
            flag: p.jurisdiction(person.country_id).flag,
          },
        ]
      : []),
    ...(person.birth_month && person.birth_year
      ? [{ label: t('people.bornColumn'), value: formatMonthYear(person.birth_month, person.birth_year, lang) }]
      : []),
    ...(person.company
      ? [{ label: t('people.isCompany'), value: person.company.name, href: p.companyHref(person.company.uri) }]
      : []),
    { label: t('people.positionsCount'), value: p.number(person.positions.length) },
  ];
  const contacts = person.contacts.map((c) => {
    const type = reference.contactTypes.byId.get(c.contact_type_id);
    const href =
      type?.uri === 'email'
        ? `mailto:${c.contact}`
        : type?.uri === 'phone'
          ? `tel:${c.contact.replace(/[^+\d]/g, '')}`
          : undefined;
    return { label: p.name(type), value: c.contact, href };
  });

  // Two steps out: the person's companies, and the other people at them.
  const focus = `m${person.id}`;
  const nodes: GraphNodeInput[] = [{ id: focus, label: person.name, kind: 'person' }];
  const edges: GraphEdgeInput[] = [];
  for (const x of person.positions) {
    nodes.push({ id: `c${x.company_id}`, label: x.name, kind: 'company', href: p.companyHref(x.uri) });
    edges.push({ from: focus, to: `c${x.company_id}`, label: positionName(x.position_id) });
  }
  for (const m of person.coMembers) {
    nodes.push({ id: `m${m.member_id}`, label: m.name, kind: 'person', href: p.path(personPath(m.name, m.member_id)) });
    edges.push({ from: `m${m.member_id}`, to: `c${m.company_id}`, label: positionName(m.position_id) });
  }
  const companies = person.positions.length;
  return {
    id: person.id,
    name: person.name,
    path: personPath(person.name, person.id),
    kind: t(`people.kinds.${person.name_type}`),
    facts,
    current: positions.filter((x) => x.active).map((x) => x.row),
    past: positions.filter((x) => !x.active).map((x) => x.row),
    contacts,
    graph: layoutConnections(focus, nodes, edges),
    description: t('people.description', {
      name: person.name,
      n: p.number(companies),
      companies: person.positions
        .slice(0, 3)
        .map((x) => x.name)
        .join(', '),
    }),
  };
}
