import { SaxesParser, type SaxesTagNS } from 'saxes';
import { TransformError, transformRule } from './transforms.ts';
import type { Filing, QName, XbrlDimension, XbrlFact, XbrlPeriod } from './types.ts';

// Reading an Inline XBRL document (Inline XBRL 1.0 and 1.1; ADR 0037). saxes reads the XHTML as
// XML with namespaces; every QName (element, `name`, `format`, `dimension`, a member, a measure) is
// resolved through the xmlns declarations in scope where it is written, so a filing that binds the
// FRC core taxonomy to `core:`, `d:` or `ns6:` gives the same facts. The document is read whole
// and synchronously: a filing is a few MB at most, and the import framework streams the many
// (core/imports/open-file.ts).
//
// Kept: ix:nonFraction (format, scale, sign, decimals, xsi:nil, nested), ix:nonNumeric (format,
// continuedAt chains through ix:continuation, ix:exclude removed), ix:fraction (numerator /
// denominator as a decimal when it divides evenly, else the value "n/d"), ix:hidden, contexts
// (entity identifier, instant / duration / forever, explicit and typed dimensions in segment or
// scenario) and units (measures, divide). Skipped: ix:tuple (the facts inside a tuple are kept
// as plain facts; the tuple's grouping is not), ix:footnote / ix:relationship, ix:references.

export const IX_NAMESPACES = new Set(['http://www.xbrl.org/2013/inlineXBRL', 'http://www.xbrl.org/2008/inlineXBRL']);
const XBRLI = 'http://www.xbrl.org/2003/instance';
const XBRLDI = 'http://xbrl.org/2006/xbrldi';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS = 'http://www.w3.org/2000/xmlns/';
const XHTML = 'http://www.w3.org/1999/xhtml';

/** Prefixes the unit strings are written with (the filing's own prefixes are never used). */
const UNIT_PREFIXES: Record<string, string> = {
  'http://www.xbrl.org/2003/iso4217': 'iso4217',
  [XBRLI]: 'xbrli',
  'http://www.xbrl.org/2009/utr': 'utr',
};

/** The file cannot be read as inline XBRL; the message names the file and what is wrong. */
export class InlineXbrlError extends Error {
  readonly sourceName: string;
  readonly reason: 'not-xbrl' | 'malformed' | 'truncated';
  constructor(sourceName: string, reason: InlineXbrlError['reason'], detail: string) {
    super(`${sourceName}: ${detail}`);
    this.name = 'InlineXbrlError';
    this.sourceName = sourceName;
    this.reason = reason;
  }
}

// Named character references of HTML that XHTML filings written by hand-rolled software use
// without a DTD (strictly undefined in XML; read as HTML would read them).
const HTML_ENTITIES: Record<string, string> = {
  nbsp: '\u00a0',
  pound: '£',
  euro: '€',
  copy: '©',
  reg: '®',
  trade: '™',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  hellip: '…',
  bull: '•',
  middot: '·',
  sect: '§',
  para: '¶',
  deg: '°',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  yen: '¥',
  cent: '¢',
  laquo: '«',
  raquo: '»',
  shy: '\u00ad',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  eacute: 'é',
  egrave: 'è',
  aacute: 'á',
  agrave: 'à',
  ouml: 'ö',
  uuml: 'ü',
  auml: 'ä',
  szlig: 'ß',
  ccedil: 'ç',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  ntilde: 'ñ',
  check: '✓',
  cross: '✗',
};

type Scope = Record<string, string>;

type RawContext = {
  scheme: string | null;
  identifier: string | null;
  period: XbrlPeriod | null;
  dimensions: XbrlDimension[];
};

type RawFact = {
  kind: 'nonFraction' | 'nonNumeric' | 'fraction';
  concept: QName;
  contextRef: string;
  unitRef: string | null;
  format: QName | null;
  scale: number;
  negative: boolean;
  decimals: number | 'INF' | null;
  nil: boolean;
  hidden: boolean;
  id: string | null;
  continuedAt: string | null;
  text: string[];
  numerator?: string[];
  denominator?: string[];
  /** Index into `facts`, for facts closed in document order. */
  order: number;
};

/** A collector of text: a fact, a continuation, or a context/unit leaf being read. */
type Collector = { text: string[]; excludeDepth: number; blocks: boolean };

const BLOCK = new Set(['p', 'div', 'br', 'tr', 'td', 'th', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table']);

/**
 * The facts of one inline XBRL document, with its entity (company number or CIK, name, period end,
 * dormant). Synchronous. Throws InlineXbrlError (naming `sourceName`) when the input is not XML, is
 * cut short, or has no inline XBRL in it; never anything else for bad input.
 */
export function parseInlineXbrl(html: string | Buffer, opts: { kind: Filing['kind']; sourceName: string }): Filing {
  const source = typeof html === 'string' ? html.replace(/^\uFEFF/, '') : decode(html);
  const { sourceName } = opts;
  const parser = new SaxesParser({ xmlns: true, position: true });
  for (const [name, value] of Object.entries(HTML_ENTITIES)) parser.ENTITIES[name] = value;

  const scopes: Scope[] = [];
  let scope: Scope = Object.create(null);
  const warnings: string[] = [];
  const contexts = new Map<string, RawContext>();
  const units = new Map<string, string>();
  const facts: RawFact[] = [];
  const continuations = new Map<string, { text: string[]; continuedAt: string | null }>();

  // Open collectors: every text event goes to all of them (nested facts share their text).
  const collectors: Collector[] = [];
  // What each open element is, to undo on close.
  type Frame = { pop: () => void } | null;
  const frames: Frame[] = [];
  let hiddenDepth = 0;
  let sawIx = false;
  let sawRoot = false;
  let failure: string | null = null;

  // Context and unit being read.
  let context: ({ id: string } & RawContext) | null = null;
  let unit: { id: string; numerators: string[]; denominators: string[]; inDenominator: boolean } | null = null;

  const resolve = (qname: string, where: string): QName | null => {
    const colon = qname.indexOf(':');
    const prefix = colon === -1 ? '' : qname.slice(0, colon);
    const localName = colon === -1 ? qname : qname.slice(colon + 1);
    const namespace = scope[prefix];
    if (namespace === undefined || !localName) {
      warnings.push(`${where}: prefix "${prefix}" of ${qname} is not declared`);
      return null;
    }
    return { namespace, localName };
  };
  const leaf = (onText: (text: string) => void): Frame => {
    const c: Collector = { text: [], excludeDepth: 0, blocks: false };
    collectors.push(c);
    return {
      pop: () => {
        collectors.splice(collectors.indexOf(c), 1);
        onText(c.text.join('').trim());
      },
    };
  };

  parser.on('error', (e) => {
    failure ??= e.message;
  });
  parser.on('text', (t) => {
    for (const c of collectors) if (c.excludeDepth === 0) c.text.push(t);
  });
  parser.on('cdata', (t) => {
    for (const c of collectors) if (c.excludeDepth === 0) c.text.push(t);
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    sawRoot = true;
    // Namespace scope: a child scope only when the element declares prefixes.
    scopes.push(scope);
    let declares = false;
    for (const key in tag.attributes) {
      const a = tag.attributes[key];
      if (a.uri === XMLNS) {
        if (!declares) {
          scope = Object.create(scope);
          declares = true;
        }
        scope[a.prefix === 'xmlns' ? a.local : ''] = a.value;
      }
    }
    const attr = (local: string, uri = '') => {
      for (const key in tag.attributes) {
        const a = tag.attributes[key];
        if (a.local === local && a.uri === uri) return a.value;
      }
      return undefined;
    };
    const uri = tag.uri;
    const local = tag.local;
    let frame: Frame = null;

    if (collectors.length > 0 && uri === XHTML && BLOCK.has(local)) {
      for (const c of collectors) if (c.blocks && c.excludeDepth === 0) c.text.push(' ');
    }

    if (IX_NAMESPACES.has(uri)) {
      sawIx = true;
      const at = `${local}${attr('id') ? ` ${attr('id')}` : ''}`;
      if (local === 'hidden') {
        hiddenDepth++;
        frame = { pop: () => hiddenDepth-- };
      } else if (local === 'exclude') {
        for (const c of collectors) c.excludeDepth++;
        const excluded = [...collectors];
        frame = {
          pop: () => {
            for (const c of excluded) c.excludeDepth--;
          },
        };
      } else if (local === 'nonFraction' || local === 'nonNumeric' || local === 'fraction') {
        const name = attr('name');
        const contextRef = attr('contextRef');
        const concept = name ? resolve(name, at) : null;
        if (!concept || !contextRef) {
          if (!name || !contextRef) warnings.push(`${at}: a fact without name or contextRef is skipped`);
        } else {
          const formatName = attr('format');
          const decimalsAttr = attr('decimals');
          const fact: RawFact = {
            kind: local,
            concept,
            contextRef,
            unitRef: attr('unitRef') ?? null,
            format: formatName ? resolve(formatName, at) : null,
            scale: Number(attr('scale') ?? 0) || 0,
            negative: attr('sign') === '-',
            decimals:
              decimalsAttr === undefined
                ? null
                : decimalsAttr === 'INF'
                  ? 'INF'
                  : Number.isFinite(Number(decimalsAttr))
                    ? Number(decimalsAttr)
                    : null,
            nil: attr('nil', XSI) === 'true' || attr('nil', XSI) === '1',
            hidden: hiddenDepth > 0,
            id: attr('id') ?? null,
            continuedAt: attr('continuedAt') ?? null,
            text: [],
            order: facts.length,
          };
          if (local === 'fraction') {
            fact.numerator = [];
            fact.denominator = [];
          }
          facts.push(fact);
          const c: Collector = { text: fact.text, excludeDepth: 0, blocks: local === 'nonNumeric' };
          collectors.push(c);
          frame = { pop: () => collectors.splice(collectors.indexOf(c), 1) };
        }
      } else if (local === 'numerator' || local === 'denominator') {
        const owner = [...facts].reverse().find((f) => f.kind === 'fraction');
        if (owner) {
          const target = local === 'numerator' ? owner.numerator : owner.denominator;
          frame = leaf((text) => target?.push(text));
        }
      } else if (local === 'continuation') {
        const id = attr('id');
        if (id) {
          const entry = { text: [] as string[], continuedAt: attr('continuedAt') ?? null };
          continuations.set(id, entry);
          const c: Collector = { text: entry.text, excludeDepth: 0, blocks: true };
          collectors.push(c);
          frame = { pop: () => collectors.splice(collectors.indexOf(c), 1) };
        }
      }
    } else if (uri === XBRLI) {
      if (local === 'context') {
        context = { id: attr('id') ?? '', scheme: null, identifier: null, period: null, dimensions: [] };
        const done = context;
        frame = {
          pop: () => {
            contexts.set(done.id, done);
            context = null;
          },
        };
      } else if (context && local === 'identifier') {
        const ctx = context;
        ctx.scheme = attr('scheme') ?? null;
        frame = leaf((text) => {
          ctx.identifier = text;
        });
      } else if (context && (local === 'instant' || local === 'startDate' || local === 'endDate')) {
        const ctx = context;
        frame = leaf((text) => {
          const date = text.slice(0, 10);
          if (local === 'instant') ctx.period = { kind: 'instant', date };
          else if (local === 'startDate') ctx.period = { kind: 'duration', start: date, end: '' };
          else if (ctx.period?.kind === 'duration') ctx.period.end = date;
          else ctx.period = { kind: 'duration', start: '', end: date };
        });
      } else if (context && local === 'forever') {
        context.period = { kind: 'forever' };
      } else if (local === 'unit') {
        unit = { id: attr('id') ?? '', numerators: [], denominators: [], inDenominator: false };
        const done = unit;
        frame = {
          pop: () => {
            const sorted = (m: string[]) => [...m].sort().join('*');
            units.set(
              done.id,
              done.denominators.length > 0
                ? `${sorted(done.numerators)}/${sorted(done.denominators)}`
                : sorted(done.numerators),
            );
            unit = null;
          },
        };
      } else if (unit && local === 'unitDenominator') {
        const u = unit;
        u.inDenominator = true;
        frame = { pop: () => (u.inDenominator = false) };
      } else if (unit && local === 'measure') {
        const u = unit;
        const inScope = scope;
        frame = leaf((text) => {
          const colon = text.indexOf(':');
          const prefix = colon === -1 ? '' : text.slice(0, colon);
          const localName = text.slice(colon + 1);
          const ns = inScope[prefix] ?? (prefix === '' ? XBRLI : undefined);
          const written =
            ns === undefined ? text : UNIT_PREFIXES[ns] ? `${UNIT_PREFIXES[ns]}:${localName}` : `{${ns}}${localName}`;
          (u.inDenominator ? u.denominators : u.numerators).push(written);
        });
      }
    } else if (uri === XBRLDI && context) {
      const ctx = context;
      const dimensionName = attr('dimension');
      const axis = dimensionName ? resolve(dimensionName, `context ${ctx.id}`) : null;
      if (axis && local === 'explicitMember') {
        const inScope = scope;
        frame = leaf((text) => {
          const saved = scope;
          scope = inScope;
          ctx.dimensions.push({ axis, member: resolve(text, `context ${ctx.id}`), typedValue: null });
          scope = saved;
        });
      } else if (axis && local === 'typedMember') {
        frame = leaf((text) => ctx.dimensions.push({ axis, member: null, typedValue: text }));
      }
    }
    frames.push(frame);
  });
  parser.on('closetag', (tag) => {
    const frame = frames.pop();
    frame?.pop();
    if (collectors.length > 0 && tag.uri === XHTML && BLOCK.has(tag.local)) {
      for (const c of collectors) if (c.blocks && c.excludeDepth === 0) c.text.push(' ');
    }
    scope = scopes.pop() ?? scope;
  });

  try {
    parser.write(source);
    if (failure === null) parser.close();
  } catch (e) {
    failure ??= (e as Error).message;
  }
  if (!sawRoot) {
    throw new InlineXbrlError(sourceName, 'not-xbrl', 'not an inline XBRL document (no XML elements in it)');
  }
  if (failure !== null) {
    const truncated = /unclosed|unexpected end|ended/i.test(failure);
    if (truncated) {
      throw new InlineXbrlError(sourceName, 'truncated', `the file ends before the document closes (${failure})`);
    }
    throw new InlineXbrlError(sourceName, 'malformed', `not well-formed XHTML: ${failure}`);
  }
  if (!sawIx) throw new InlineXbrlError(sourceName, 'not-xbrl', 'not an inline XBRL document (no ix: elements)');

  // ---- Facts: contexts and units joined, formats applied ----
  const out: XbrlFact[] = [];
  for (const raw of facts) {
    const ctx = contexts.get(raw.contextRef);
    const where = `${raw.concept.localName}${raw.id ? ` (${raw.id.length > 24 ? `${raw.id.slice(0, 24)}…` : raw.id})` : ''}`;
    if (!ctx?.period) {
      warnings.push(`${where}: context ${raw.contextRef} is missing or has no period; fact skipped`);
      continue;
    }
    const numeric = raw.kind !== 'nonNumeric';
    let value: string | null | undefined = null;
    try {
      value = raw.nil ? null : factValue(raw, continuations);
    } catch (e) {
      if (!(e instanceof TransformError)) throw e;
      warnings.push(`${where}: ${e.message}; fact skipped`);
      continue;
    }
    if (value === undefined) {
      warnings.push(`${where}: format {${raw.format?.namespace}}${raw.format?.localName} is not implemented`);
      if (numeric) continue;
      value = joinText(raw.text);
    }
    const unitName = raw.unitRef ? (units.get(raw.unitRef) ?? null) : null;
    if (numeric && raw.unitRef && unitName === null) warnings.push(`${where}: unit ${raw.unitRef} is not declared`);
    const currency = unitName?.startsWith('iso4217:') && !unitName.includes('/') ? unitName.slice(8) : null;
    out.push({
      concept: raw.concept,
      numeric,
      value,
      decimals: numeric ? raw.decimals : null,
      unit: numeric ? unitName : null,
      currency: numeric ? currency : null,
      period: ctx.period,
      dimensions: ctx.dimensions,
      contextId: raw.contextRef,
      hidden: raw.hidden,
      factId: raw.id,
    });
  }

  return { ...entityOf(opts.kind, sourceName, out, contexts), facts: out, warnings };
}

/**
 * The document's text: UTF-8 (a byte-order mark dropped) unless its XML declaration names a Latin-1
 * encoding (ISO-8859-1, windows-1252), which some filing software writes.
 */
function decode(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  if (declared && /^(iso-8859-1|latin1|windows-1252|cp1252)$/.test(declared)) {
    return new TextDecoder('windows-1252').decode(bytes);
  }
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/** Text with runs of white space made one space, trimmed. */
function joinText(parts: string[]): string {
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** The fact's value; undefined when its format is not implemented. */
function factValue(raw: RawFact, continuations: Map<string, { text: string[]; continuedAt: string | null }>) {
  if (raw.kind === 'nonNumeric') {
    const parts = [...raw.text];
    const seen = new Set<string>();
    let next = raw.continuedAt;
    while (next && !seen.has(next)) {
      seen.add(next);
      const c = continuations.get(next);
      if (!c) break;
      parts.push(' ', ...c.text);
      next = c.continuedAt;
    }
    const text = joinText(parts);
    if (!raw.format) return text;
    const rule = transformRule(raw.format.namespace, raw.format.localName);
    return rule ? rule(text) : undefined;
  }
  if (raw.kind === 'fraction') {
    const n = decimalOf(joinText(raw.numerator ?? []), null);
    const d = decimalOf(joinText(raw.denominator ?? []), null);
    if (n === undefined || d === undefined) return undefined;
    const q = Number(n) / Number(d);
    const value = Number.isFinite(q) && String(q).length < 16 ? canonical(String(q)) : `${n}/${d}`;
    return raw.negative ? negate(value) : value;
  }
  const decimal = decimalOf(joinText(raw.text), raw.format);
  if (decimal === undefined) return undefined;
  const scaled = shift(decimal, raw.scale);
  return raw.negative ? negate(scaled) : scaled;
}

function decimalOf(text: string, format: QName | null): string | undefined {
  if (!format) {
    const t = text.replace(/\s/g, '');
    if (!/^\d+(\.\d*)?$|^\.\d+$/.test(t)) throw new TransformError('(none)', text, 'not a decimal number');
    return t;
  }
  const rule = transformRule(format.namespace, format.localName);
  if (!rule) return undefined;
  const value = rule(text);
  if (!/^\d+(\.\d*)?$/.test(value)) throw new TransformError(format.localName, text, 'not a number');
  return value;
}

/** A decimal string in canonical form: no leading zeros, no trailing fraction zeros, no "-0". */
export function canonical(decimal: string): string {
  let negative = decimal.startsWith('-');
  let [int, frac = ''] = decimal.replace(/^[-+]/, '').split('.');
  int = int.replace(/^0+/, '') || '0';
  frac = frac.replace(/0+$/, '');
  if (int === '0' && frac === '') negative = false;
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** The decimal times 10^scale, by moving the point (exact, no floating point). */
export function shift(decimal: string, scale: number): string {
  const [int, frac = ''] = decimal.split('.');
  let digits = int + frac;
  let point = int.length + scale;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  return canonical(`${digits.slice(0, point) || '0'}.${digits.slice(point)}`);
}

function negate(decimal: string): string {
  if (decimal === '0') return decimal;
  return decimal.startsWith('-') ? decimal.slice(1) : `-${decimal}`;
}

// ---- The entity --------------------------------------------------------------------------

/** Local names that carry the entity's particulars (FRC business taxonomy, SEC dei). */
const ENTITY_NUMBER = new Set(['UKCompaniesHouseRegisteredNumber']);
const ENTITY_NAME = new Set(['EntityCurrentLegalOrRegisteredName', 'EntityRegistrantName']);
const PERIOD_END = new Set(['BalanceSheetDate', 'DocumentPeriodEndDate']);
const DORMANT = new Set(['EntityDormantTruefalse']);
const CIK = new Set(['EntityCentralIndexKey']);

const isFrc = (ns: string) => ns.startsWith('http://xbrl.frc.org.uk/');
const isDei = (ns: string) => ns.startsWith('http://xbrl.sec.gov/dei/');

/**
 * A Companies House number in its register form: 8 characters, the two-letter prefix kept
 * (SC, NI, OC, SO, NC, R0…) and the digits padded with leading zeros ("5078870" → "05078870").
 * Null when it is not one.
 */
export function normaliseCompanyNumber(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const t = raw.replace(/\s/g, '').toUpperCase();
  const m = /^([A-Z]{1,2})?(\d{1,8})$/.exec(t);
  if (!m) return null;
  const prefix = m[1] ?? '';
  const number = prefix + m[2].padStart(8 - prefix.length, '0');
  return number.length === 8 ? number : null;
}

function entityOf(
  kind: Filing['kind'],
  sourceName: string,
  facts: XbrlFact[],
  contexts: Map<string, RawContext>,
): Omit<Filing, 'facts' | 'warnings'> {
  const first = (names: Set<string>, family: (ns: string) => boolean) =>
    facts.find((f) => names.has(f.concept.localName) && family(f.concept.namespace) && f.value)?.value ?? null;
  const family = kind === 'sec-ixbrl' ? isDei : isFrc;
  // The identifier most contexts name (filings give one; a stray one does not win).
  const counts = new Map<string, { scheme: string | null; identifier: string; n: number }>();
  for (const c of contexts.values()) {
    if (!c.identifier) continue;
    const key = `${c.scheme}\u0000${c.identifier}`;
    const entry = counts.get(key) ?? { scheme: c.scheme, identifier: c.identifier, n: 0 };
    entry.n++;
    counts.set(key, entry);
  }
  const top = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  const entityScheme = top?.scheme ?? null;
  const entityIdentifier = top?.identifier ?? null;

  let companyNumber: string | null = null;
  let cik: string | null = null;
  if (kind === 'ch-accounts') {
    companyNumber =
      normaliseCompanyNumber(first(ENTITY_NUMBER, family)) ??
      (entityScheme?.includes('companieshouse') ? normaliseCompanyNumber(entityIdentifier) : null) ??
      normaliseCompanyNumber(entityIdentifier);
  } else {
    const written = first(CIK, family) ?? (entityScheme?.includes('sec.gov') ? entityIdentifier : null);
    cik = written && /^\d{1,10}$/.test(written.trim()) ? written.trim().padStart(10, '0') : null;
  }
  const periodWritten = first(PERIOD_END, family);
  const periodEnd = periodWritten && /^\d{4}-\d{2}-\d{2}/.test(periodWritten) ? periodWritten.slice(0, 10) : null;
  const dormantWritten = first(DORMANT, family);
  const dormant = dormantWritten === null ? null : /^(true|1|yes)$/i.test(dormantWritten.trim());
  void sourceName;
  return {
    kind,
    sourceName,
    entityScheme,
    entityIdentifier,
    companyNumber,
    cik,
    name: first(ENTITY_NAME, family),
    periodEnd,
    dormant,
  };
}
