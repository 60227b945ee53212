// The Inline XBRL transformation registry (ADR 0037): a fact's `format` attribute names a rule by
// QName, resolved by the namespace URI (never by prefix: each filing binds its own). The four
// registries of XBRL International (TR1 2010-04-20, TR2 2011-07-31, TR3 2015-02-26, TR4/TR5
// 2020-02-12) and the SEC's (2015-08-31) share rules under different names; each name maps to one
// of the functions below. A rule gives the XML value of the fact (an xs:decimal for a number, an
// ISO date, "true"/"false", "" for nocontent) or throws TransformError.

export const IXT = {
  /** The Inline XBRL 1.0 candidate's registry (2008), the same rule names as TR1. */
  tr0: 'http://www.xbrl.org/2008/inlineXBRL/transformation',
  tr1: 'http://www.xbrl.org/inlineXBRL/transformation/2010-04-20',
  tr2: 'http://www.xbrl.org/inlineXBRL/transformation/2011-07-31',
  tr3: 'http://www.xbrl.org/inlineXBRL/transformation/2015-02-26',
  tr4: 'http://www.xbrl.org/inlineXBRL/transformation/2020-02-12',
  sec: 'http://www.sec.gov/inlineXBRL/transformation/2015-08-31',
} as const;

export class TransformError extends Error {
  constructor(rule: string, text: string, why: string) {
    super(`format ${rule} cannot read "${text.length > 40 ? `${text.slice(0, 40)}…` : text}": ${why}`);
    this.name = 'TransformError';
  }
}

type Rule = (text: string, name: string) => string;

// ---- Numbers -------------------------------------------------------------------------------

/** The number with its group separators removed and its decimal mark made a dot. */
function number(group: RegExp, decimal: string | null): Rule {
  return (text, name) => {
    const t = text.replace(/\s+/g, ' ').trim();
    // A number, possibly with a fraction part after the decimal mark (none for integer-only rules).
    const intPart = decimal === null ? t : t.split(decimal)[0];
    const fracPart = decimal === null ? undefined : t.split(decimal)[1];
    if (decimal !== null && t.split(decimal).length > 2) throw new TransformError(name, text, 'two decimal marks');
    const digits = intPart.replace(group, '');
    if (!/^\d+$/.test(digits)) throw new TransformError(name, text, 'not a number');
    if (fracPart === undefined || fracPart === '') return digits;
    if (!/^\d+$/.test(fracPart)) throw new TransformError(name, text, 'not a number');
    return `${digits}.${fracPart}`;
  };
}

// Group separators: TR1 names them in the rule (numcommadot: comma groups, dot decimal); TR2+ accept
// any of space, comma, dot, apostrophe (and no-break space) before the decimal mark.
const dotDecimal = number(/[ ,\u00a0'\u2019\u202f]/g, '.');
const commaDecimal = number(/[ .\u00a0'\u2019\u202f]/g, ',');

/** "5 pounds 30 pence", "10 Euro 50": whole units then an optional fraction in minor units (TR2+). */
const unitDecimal: Rule = (text, name) => {
  const m = /^\s*([\d ,.\u00a0']+)[^\d]+(\d{1,2})?[^\d]*$/.exec(text);
  if (!m) throw new TransformError(name, text, 'not a number with units');
  const whole = m[1].replace(/[ ,.\u00a0']/g, '');
  if (!/^\d+$/.test(whole)) throw new TransformError(name, text, 'not a number');
  return m[2] ? `${whole}.${m[2].padStart(2, '0')}` : whole;
};

const zero: Rule = (text, name) => {
  // zerodash / fixed-zero: any dash (or nothing at all for fixed-zero) stands for 0.
  if (/^[\s\-\u2010-\u2015\u2212\ufe58\ufe63\uff0d]*$/.test(text)) return '0';
  throw new TransformError(name, text, 'not a dash');
};
const fixedZero: Rule = () => '0';
const noContent: Rule = () => '';
const booleanTrue: Rule = () => 'true';
const booleanFalse: Rule = () => 'false';

const WORDS: Record<string, number> = {
  zero: 0,
  no: 0,
  none: 0,
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

/** English number words ("twenty-three", "one hundred", "no") or digits; the SEC's numwordsen. */
function wordsToNumber(text: string, name: string): number {
  const t = text
    .toLowerCase()
    .replace(/[,\u00a0]/g, ' ')
    .trim();
  if (/^\d+(\.\d+)?$/.test(t.replace(/\s/g, ''))) return Number(t.replace(/\s/g, ''));
  let total = 0;
  let group = 0;
  let any = false;
  for (const word of t.split(/[\s-]+/)) {
    if (word === 'and' || word === '') continue;
    if (word in WORDS) group += WORDS[word];
    else if (word === 'hundred') group = (group || 1) * 100;
    else if (word in SCALES) {
      total += (group || 1) * SCALES[word];
      group = 0;
    } else throw new TransformError(name, text, `"${word}" is not a number word`);
    any = true;
  }
  if (!any) throw new TransformError(name, text, 'no number words');
  return total + group;
}
const numWordsEn: Rule = (text, name) => String(wordsToNumber(text, name));

// ---- Dates ---------------------------------------------------------------------------------

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

function year(y: string): number {
  // Two-digit years are this century's (TR2 and later: 00–99 as 2000–2099).
  return y.length <= 2 ? 2000 + Number(y) : Number(y);
}

function isoDate(y: number, m: number, d: number, rule: string, text: string): string {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (!(m >= 1 && m <= 12) || date.getUTCDate() !== d || date.getUTCMonth() !== m - 1) {
    throw new TransformError(rule, text, 'not a date');
  }
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function monthNumber(word: string, rule: string, text: string): number {
  const m = MONTHS[word.toLowerCase().replace(/\.$/, '')];
  if (!m) throw new TransformError(rule, text, `"${word}" is not a month`);
  return m;
}

/** Numeric dates with any separators, the fields in the order given ("dmy", "mdy", "ymd"). */
function numericDate(order: 'dmy' | 'mdy' | 'ymd'): Rule {
  return (text, name) => {
    const parts = text
      .trim()
      .split(/[^\d]+/)
      .filter(Boolean);
    if (parts.length !== 3) throw new TransformError(name, text, 'not a date of three numbers');
    const at = (f: string) => parts[order.indexOf(f)];
    return isoDate(year(at('y')), Number(at('m')), Number(at('d')), name, text);
  };
}

/** English dates with the month as a word: "30 September 2020", "6th May 2021", "September 26, 2020". */
function wordDate(order: 'dmy' | 'mdy' | 'ym' | 'my' | 'dm' | 'md'): Rule {
  return (text, name) => {
    const words = text
      .trim()
      .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
      .split(/[\s,./-]+/)
      .filter(Boolean);
    if (words.length !== order.length) throw new TransformError(name, text, 'not a date');
    const at = (f: string) => words[order.indexOf(f)];
    const m = /^\d+$/.test(at('m')) ? Number(at('m')) : monthNumber(at('m'), name, text);
    const y = order.includes('y') ? year(at('y')) : 2000; // day-month rules give --MM-DD
    const d = order.includes('d') ? Number(at('d')) : 1;
    const iso = isoDate(y, m, d, name, text);
    if (!order.includes('y')) return `--${iso.slice(5)}`;
    if (!order.includes('d')) return iso.slice(0, 7);
    return iso;
  };
}

// ---- The SEC's rules -----------------------------------------------------------------------

const ballotBox: Rule = (text, name) => {
  const t = text.trim();
  if (t === '\u2610') return 'false';
  if (t === '\u2611' || t === '\u2612') return 'true';
  throw new TransformError(name, text, 'not a ballot box');
};
const durationYear: Rule = (text, name) => {
  const n = Number(text.trim());
  if (!Number.isFinite(n) || n < 0) throw new TransformError(name, text, 'not a number of years');
  const years = Math.floor(n);
  const months = Math.round((n - years) * 12);
  return `P${years}Y${months ? `${months}M` : ''}`;
};
const durationMonth: Rule = (text, name) => {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 0) throw new TransformError(name, text, 'not a number of months');
  return `P${n}M`;
};
const durationWords: Rule = (text, name) => {
  const m = /^\s*(.+?)[\s-]+(year|month|day)s?\s*$/i.exec(text);
  if (!m) throw new TransformError(name, text, 'not a duration in words');
  const n = wordsToNumber(m[1], name);
  return `P${n}${m[2][0].toUpperCase()}`;
};

// ---- The registry --------------------------------------------------------------------------

const TR1: Record<string, Rule> = {
  numcommadot: number(/,/g, '.'),
  numdotcomma: number(/\./g, ','),
  numspacedot: number(/[ \u00a0]/g, '.'),
  numspacecomma: number(/[ \u00a0]/g, ','),
  numcomma: number(/(?!)/g, ','),
  numdash: zero,
  numcommadash: zero,
  zerodash: zero,
  datedoteu: numericDate('dmy'),
  datedotus: numericDate('mdy'),
  dateslasheu: numericDate('dmy'),
  dateslashus: numericDate('mdy'),
  datelonguk: wordDate('dmy'),
  dateshortuk: wordDate('dmy'),
  datelongus: wordDate('mdy'),
  dateshortus: wordDate('mdy'),
  datelongdaymonthuk: wordDate('dm'),
  dateshortdaymonthuk: wordDate('dm'),
  datelongmonthdayus: wordDate('md'),
  dateshortmonthdayus: wordDate('md'),
  dateslashdaymontheu: wordDate('dm'),
  dateslashmonthdayus: wordDate('md'),
  datelongyearmonth: wordDate('ym'),
  dateshortyearmonth: wordDate('ym'),
  datelongmonthyear: wordDate('my'),
  dateshortmonthyear: wordDate('my'),
};

const TR2AND3: Record<string, Rule> = {
  numdotdecimal: dotDecimal,
  numcommadecimal: commaDecimal,
  numunitdecimal: unitDecimal,
  zerodash: zero,
  nocontent: noContent,
  booleantrue: booleanTrue,
  booleanfalse: booleanFalse,
  datedaymonth: wordDate('dm'),
  datedaymonthen: wordDate('dm'),
  datemonthday: wordDate('md'),
  datemonthdayen: wordDate('md'),
  datedaymonthyear: numericDate('dmy'),
  datemonthdayyear: numericDate('mdy'),
  dateyearmonthday: numericDate('ymd'),
  datedaymonthyearen: wordDate('dmy'),
  datemonthdayyearen: wordDate('mdy'),
  datemonthyear: wordDate('my'),
  datemonthyearen: wordDate('my'),
  dateyearmonthen: wordDate('ym'),
};

const TR4: Record<string, Rule> = {
  'num-dot-decimal': dotDecimal,
  'num-comma-decimal': commaDecimal,
  'num-unit-decimal': unitDecimal,
  'fixed-zero': fixedZero,
  'fixed-empty': noContent,
  'fixed-true': booleanTrue,
  'fixed-false': booleanFalse,
  'date-day-month-year': numericDate('dmy'),
  'date-month-day-year': numericDate('mdy'),
  'date-year-month-day': numericDate('ymd'),
  'date-day-monthname-year-en': wordDate('dmy'),
  'date-monthname-day-year-en': wordDate('mdy'),
  'date-day-month': wordDate('dm'),
  'date-month-day': wordDate('md'),
  'date-month-year': wordDate('my'),
  'date-year-month': wordDate('ym'),
  'date-day-monthname-en': wordDate('dm'),
  'date-monthname-day-en': wordDate('md'),
  'date-monthname-year-en': wordDate('my'),
  'date-year-monthname-en': wordDate('ym'),
};

const US_STATES: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
  'puerto rico': 'PR',
};
const stateName: Rule = (text, name) => {
  const code = US_STATES[text.trim().toLowerCase().replace(/\s+/g, ' ')];
  if (!code) throw new TransformError(name, text, 'not a US state');
  return code;
};
const EXCHANGES: [RegExp, string][] = [
  [/nasdaq/i, 'NASDAQ'],
  [/new york stock exchange|^nyse$/i, 'NYSE'],
  [/nyse american|nyse mkt/i, 'NYSEAMER'],
  [/nyse arca/i, 'NYSEArca'],
  [/cboe/i, 'CBOE'],
];
const exchangeName: Rule = (text, name) => {
  const hit = EXCHANGES.find(([re]) => re.test(text.trim()));
  if (!hit) throw new TransformError(name, text, 'not a known exchange');
  return hit[1];
};
const filerCategory: Rule = (text, name) => {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const categories = ['large accelerated filer', 'accelerated filer', 'non-accelerated filer'];
  if (!categories.includes(t)) throw new TransformError(name, text, 'not a filer category');
  return t.replace(/(^|[\s-])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
};

const SEC: Record<string, Rule> = {
  stateprovnameen: stateName,
  exchnameen: exchangeName,
  entityfilercategoryen: filerCategory,
  numwordsen: numWordsEn,
  boolballotbox: ballotBox,
  duryear: durationYear,
  durmonth: durationMonth,
  durwordsen: durationWords,
  numinf: () => 'INF',
  numneginf: () => '-INF',
  numnan: () => 'NaN',
};

const REGISTRY = new Map<string, Record<string, Rule>>([
  [IXT.tr0, TR1],
  [IXT.tr1, TR1],
  [IXT.tr2, TR2AND3],
  [IXT.tr3, { ...TR2AND3, numdotdecimalin: dotDecimal, numunitdecimalin: unitDecimal }],
  [IXT.tr4, TR4],
  [IXT.sec, SEC],
]);

/** The rule for a format QName, or null when it is not implemented (the caller decides). */
export function transformRule(namespace: string, localName: string): ((text: string) => string) | null {
  const rule = REGISTRY.get(namespace)?.[localName];
  if (!rule) return null;
  return (text) => rule(text, localName);
}

/** Whether a rule exists for this format; for tests and messages. */
export function hasTransform(namespace: string, localName: string): boolean {
  return Boolean(REGISTRY.get(namespace)?.[localName]);
}
