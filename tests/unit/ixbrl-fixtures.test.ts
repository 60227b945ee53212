import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalise } from '../../core/ixbrl/normalise.ts';
import { InlineXbrlError, normaliseCompanyNumber, parseInlineXbrl } from '../../core/ixbrl/parse.ts';
import type { Filing, NormalisedFigures } from '../../core/ixbrl/types.ts';
import { REGISTRY_FIXTURES } from '../support/registry-fixtures.ts';

// The real filings of ../shared/fixtures/accounts-ixbrl (ADR 0037), read as they are. Every
// expected figure below was read by hand in the filing's HTML (the line given is the line of the
// file where the tagged value stands; Apple's 10-K is four lines long, so its statement and row are
// named instead).

const DIR = join(REGISTRY_FIXTURES, 'accounts-ixbrl');
const read = (name: string): Filing =>
  parseInlineXbrl(readFileSync(join(DIR, name)), {
    kind: name.startsWith('aapl') ? 'sec-ixbrl' : 'ch-accounts',
    sourceName: name,
  });
const row = (rows: NormalisedFigures[], periodEnd: string, scope: 'company' | 'consolidated') => {
  const found = rows.find((r) => r.periodEnd === periodEnd && r.scope === scope);
  if (!found) throw new Error(`no ${scope} row for ${periodEnd}`);
  return found;
};
const FRC_CORE_2019 = 'http://xbrl.frc.org.uk/fr/2019-01-01/core';

describe('Companies House filings', () => {
  it('00390616: a number written without its leading zeros, balance sheet and employees', () => {
    const filing = read('Prod223_2911_00390616_20201231.html');
    // Contexts' identifier is "390616" (ix:resources); the register number is 00390616.
    expect(filing.entityIdentifier).toBe('390616');
    expect(filing.companyNumber).toBe('00390616');
    expect(filing.name).toBe('MAURICE CROUCH (GROWERS) LTD'); // line 1185, EntityCurrentLegalOrRegisteredName
    expect(filing.periodEnd).toBe('2020-12-31'); // line 45, BalanceSheetDate (hidden)
    expect(filing.dormant).toBe(false);
    const rows = normalise(filing);
    const now = row(rows, '2020-12-31', 'company');
    const before = row(rows, '2019-12-31', 'company');
    expect(now.comparative).toBe(false);
    expect(before.comparative).toBe(true);
    expect(now.currentAssets).toBe('4289294'); // line 1848: 4,289,294
    expect(before.currentAssets).toBe('3943823'); // line 1864: 3,943,823
    expect(now.netAssets).toBe('18297298'); // line 2249: 18,297,298
    expect(before.netAssets).toBe('18156227'); // line 2265: 18,156,227
    expect(now.cash).toBe('2165'); // line 1803: 2,165
    expect(now.averageEmployees).toBe('21'); // line 45: 21 (hidden), prior year 23
    expect(before.averageEmployees).toBe('23');
    expect(now.currency).toBe('GBP');
    expect(now.concepts.netAssets).toBe(`${FRC_CORE_2019}#NetAssetsLiabilities`);
    // sign="-": line 2194, ProvisionsForLiabilitiesBalanceSheetSubtotal shown as 228,969 with sign="-".
    const provisions = filing.facts.find(
      (f) => f.concept.localName === 'ProvisionsForLiabilitiesBalanceSheetSubtotal' && f.contextId === 'c3',
    );
    expect(provisions?.value).toBe('-228969');
    // The balance sheet date is in ix:hidden.
    expect(filing.facts.find((f) => f.concept.localName === 'BalanceSheetDate')?.hidden).toBe(true);
    expect(filing.facts.find((f) => f.concept.localName === 'CurrentAssets')?.hidden).toBe(false);
  });

  it('00824514: 2014 FRC taxonomy namespaces, decimals INF', () => {
    const filing = read('Prod223_2911_00824514_20201231.html');
    expect(filing.companyNumber).toBe('00824514');
    expect(filing.name).toBe('CROYLEK LIMITED'); // line 760
    expect(filing.periodEnd).toBe('2020-12-31'); // line 39
    const rows = normalise(filing);
    expect(row(rows, '2020-12-31', 'company').currentAssets).toBe('2813247'); // line 2364: 2,813,247
    expect(row(rows, '2019-12-31', 'company').currentAssets).toBe('2584593'); // line 2380: 2,584,593
    expect(row(rows, '2020-12-31', 'company').cash).toBe('832736'); // line 2319: 832,736
    expect(row(rows, '2019-12-31', 'company').cash).toBe('641213'); // line 2332: 641,213
    expect(row(rows, '2020-12-31', 'company').netAssets).toBe('2306792'); // line 2765: 2,306,792
    expect(row(rows, '2020-12-31', 'company').averageEmployees).toBe('13'); // line 4536: 13 (prior 21)
    expect(row(rows, '2020-12-31', 'company').concepts.netAssets).toBe(
      'http://xbrl.frc.org.uk/fr/2014-09-01/core#NetAssetsLiabilities',
    );
    const employees = filing.facts.find((f) => f.concept.localName === 'AverageNumberEmployeesDuringPeriod');
    expect(employees?.decimals).toBe('INF');
    expect(employees?.unit).toBe('xbrli:pure');
    expect(employees?.currency).toBeNull();
  });

  it('03195231: ixt2 formats (numdotdecimal, zerodash, nocontent, booleans, d.m.yy dates) and prefixes ns6/ns11', () => {
    const filing = read('Prod223_2911_03195231_20200630.html');
    expect(filing.companyNumber).toBe('03195231'); // line 125
    expect(filing.name).toBe('P.J. LIVESEY HOLDINGS LIMITED'); // line 202, inside a table in the fact
    // BalanceSheetDate written "30.6.20" with ixt2:datedaymonthyear.
    expect(filing.periodEnd).toBe('2020-06-30');
    // "6th May 2021" with ixt2:datedaymonthyearen.
    expect(
      filing.facts.find((f) => f.concept.localName === 'DateAuthorisationFinancialStatementsForIssue')?.value,
    ).toBe('2021-05-06');
    // ixt2:booleantrue
    expect(filing.facts.find((f) => f.concept.localName === 'ReportIncludesStrategicReportTruefalse')?.value).toBe(
      'true',
    );
    // ixt2:nocontent on an empty element
    expect(filing.facts.find((f) => f.concept.localName === 'CountryFormationOrIncorporation')?.value).toBe('');
    // ixt2:zerodash: "-" read as 0
    const zero = filing.facts.filter((f) => f.numeric && f.value === '0');
    expect(zero.length).toBeGreaterThan(0);
    const rows = normalise(filing);
    const now = row(rows, '2020-06-30', 'company');
    expect(now.currentAssets).toBe('35702566'); // line 3486: 35,702,566
    expect(row(rows, '2019-06-30', 'company').currentAssets).toBe('38256276'); // line 3488: 38,256,276
    expect(now.profitBeforeTax).toBe('481993'); // line 7305: 481,993 (prior 490,463, line 7307)
    expect(row(rows, '2019-06-30', 'company').profitBeforeTax).toBe('490463');
    // ProfitLoss is tagged on the Consolidated member in this filing: consolidated, apart.
    expect(row(rows, '2020-06-30', 'consolidated').profitAfterTax).toBe('377070'); // line 2408: 377,070
    expect(row(rows, '2019-06-30', 'consolidated').profitAfterTax).toBe('402203'); // line 2410: 402,203
    expect(now.profitAfterTax).toBeNull();
    // An opening equity balance (2018-06-30) is not a period of its own.
    expect(rows.some((r) => r.periodEnd === '2018-06-30')).toBe(false);
  });

  it('04457427: namespaces declared on each fact, a filing of six numbers', () => {
    const filing = read('Prod223_2911_04457427_20201231.html');
    expect(filing.companyNumber).toBe('04457427'); // line 887
    expect(filing.name).toBe('ProEdge Accounting Limited'); // line 886
    expect(filing.periodEnd).toBe('2020-12-31'); // line 892
    expect(filing.dormant).toBe(false);
    expect(filing.facts.filter((f) => f.numeric)).toHaveLength(6);
    const rows = normalise(filing);
    expect(row(rows, '2020-12-31', 'company').currentAssets).toBe('1101'); // line 1238: 1,101
    expect(row(rows, '2019-12-31', 'company').currentAssets).toBe('1101'); // line 1243: 1,101
    expect(row(rows, '2020-12-31', 'company').averageEmployees).toBe('0'); // line 1294
  });

  it('05078870: group accounts, consolidated and company-only kept apart, ix 2008 namespaces', () => {
    const filing = read('Prod223_2911_05078870_20200930.html');
    expect(filing.companyNumber).toBe('05078870'); // line 1695: "5078870"
    expect(filing.name).toBe('Demo TV Limited'); // line 1751
    expect(filing.periodEnd).toBe('2020-09-30'); // line 3422: "30 September 2020", ixt:datelonguk
    expect(filing.dormant).toBe(false); // line 236
    const rows = normalise(filing);
    const group = row(rows, '2020-09-30', 'consolidated');
    const groupBefore = row(rows, '2019-09-30', 'consolidated');
    expect(group.revenue).toBe('21444801'); // line 3044: 21,444,801
    expect(groupBefore.revenue).toBe('19372069'); // line 3048: 19,372,069
    expect(group.operatingProfit).toBe('2245991'); // line 3154: 2,245,991
    expect(groupBefore.operatingProfit).toBe('948089'); // line 3158: 948,089
    expect(group.profitAfterTax).toBe('1719447'); // line 3352: 1,719,447
    expect(groupBefore.profitAfterTax).toBe('663804'); // line 3356: 663,804
    expect(group.netAssets).toBe('2288664'); // line 3729: 2,288,664
    expect(groupBefore.netAssets).toBe('946687'); // line 3733: 946,687
    expect(groupBefore.comparative).toBe(true);
    // The company's own balance sheet (no dimension): net assets 1,262,403 against the group's.
    const company = row(rows, '2020-09-30', 'company');
    expect(company.netAssets).toBe('1262403');
    expect(company.revenue).toBeNull();
    // Scale -2 on a percentage: "25" is 0.25.
    const rate = filing.facts.find((f) => f.concept.localName === 'DepreciationRateUsedForPropertyPlantEquipment');
    expect(rate?.value).toBe('0.25');
    expect(rate?.unit).toBe('xbrli:pure');
    // A fact on a share class is not a headline figure but is kept with its dimensions.
    const dividend = filing.facts.find(
      (f) =>
        f.concept.localName === 'DividendsPaidOnShares' &&
        f.contextId === 'Consolidated_OrdinaryShareClass1_Period_TMinusZero',
    );
    expect(dividend?.value).toBe('197175');
    expect(dividend?.dimensions.map((d) => `${d.axis.localName}=${d.member?.localName}`)).toEqual([
      'GroupCompanyDataDimension=Consolidated',
      'EntityShareClassesDimension=OrdinaryShareClass1',
    ]);
    expect(dividend?.dimensions[0].axis.namespace).toBe('http://xbrl.frc.org.uk/cd/2019-01-01/business');
  });

  it('SC312961: a Scottish company keeps its prefix; continuations joined', () => {
    const filing = read('Prod223_2911_SC312961_20200930.html');
    expect(filing.companyNumber).toBe('SC312961');
    expect(filing.name).toBe('CORINTHIAN EUROPE LIMITED'); // line 506
    expect(filing.periodEnd).toBe('2020-09-30'); // line 36
    const rows = normalise(filing);
    expect(row(rows, '2020-09-30', 'company').currentAssets).toBe('47305'); // line 1145: 47,305
    expect(row(rows, '2019-09-30', 'company').currentAssets).toBe('254602'); // line 1161: 254,602
    expect(row(rows, '2020-09-30', 'company').cash).toBe('9559'); // line 1100: 9,559
    expect(row(rows, '2020-09-30', 'company').netAssets).toBe('47305'); // line 1397: 47,305
    expect(row(rows, '2019-09-30', 'company').netAssets).toBe('48217'); // line 1413: 48,217
    expect(row(rows, '2020-09-30', 'company').averageEmployees).toBe('3');
    // Line 2194: TradeReceivablesPolicy, continuedAt the ix:continuation of line 2197 (a <br/>): the
    // fact's text is the sentence read there, whole.
    expect(filing.facts.find((f) => f.concept.localName === 'TradeReceivablesPolicy')?.value).toBe(
      'Short term debtors are measured at transaction price, less any impairment. Loans receivable are measured initially at fair value, net of transaction costs, and are measured subsequently at amortised cost using the effective interest method, less any impairment.',
    );
  });
});

describe('the SEC 10-K', () => {
  it('Apple 2020: CIK, name, period end and the consolidated statements, scale 6', () => {
    const filing = read('aapl-20200926.htm');
    expect(filing.cik).toBe('0000320193'); // dei:EntityCentralIndexKey on the cover (hidden)
    expect(filing.companyNumber).toBeNull();
    expect(filing.name).toBe('Apple Inc.');
    expect(filing.periodEnd).toBe('2020-09-26'); // "September 26, 2020", ixt:datemonthdayyearen
    const rows = normalise(filing);
    const fy2020 = row(rows, '2020-09-26', 'consolidated');
    const fy2019 = row(rows, '2019-09-28', 'consolidated');
    // Consolidated Statements of Operations: Total net sales 274,515 and 260,174 ($ millions, scale 6).
    expect(fy2020.revenue).toBe('274515000000');
    expect(fy2019.revenue).toBe('260174000000');
    // Net income 57,411 and 55,256.
    expect(fy2020.profitAfterTax).toBe('57411000000');
    expect(fy2019.profitAfterTax).toBe('55256000000');
    // Consolidated Balance Sheets: Total assets 323,888 and 338,516; total liabilities 258,549.
    expect(fy2020.totalAssets).toBe('323888000000');
    expect(fy2019.totalAssets).toBe('338516000000');
    expect(fy2020.totalLiabilities).toBe('258549000000');
    expect(fy2020.currency).toBe('USD');
    expect(fy2019.comparative).toBe(true);
    expect(fy2020.concepts.revenue).toBe(
      'http://fasb.org/us-gaap/2020-01-31#RevenueFromContractWithCustomerExcludingAssessedTax',
    );
    // Segment (product line) sales are kept as facts with their dimension, never as the headline.
    const iphone = filing.facts.find(
      (f) =>
        f.concept.localName === 'RevenueFromContractWithCustomerExcludingAssessedTax' && f.value === '137781000000',
    );
    expect(iphone?.dimensions[0]?.axis.localName).toBe('ProductOrServiceAxis');
    // ixt-sec:boolballotbox (☒ / ☐)
    expect(filing.facts.find((f) => f.concept.localName === 'DocumentAnnualReport')?.value).toBe('true');
    expect(filing.facts.find((f) => f.concept.localName === 'EntityShellCompany')?.value).toBe('false');
    // Per-share units
    expect(filing.facts.find((f) => f.concept.localName === 'EarningsPerShareBasic')?.unit).toBe(
      'iso4217:USD/xbrli:shares',
    );
    expect(filing.warnings).toEqual([]);
  });
});

describe('prefix independence', () => {
  /** The document with every namespace prefix renamed (and two swapped), bindings unchanged. */
  function renamePrefixes(source: string): string {
    const prefixes = [...new Set([...source.matchAll(/xmlns:([A-Za-z][\w.-]*)=/g)].map((m) => m[1]))].filter(
      (p) => p !== 'xml',
    );
    const target = new Map(prefixes.map((p, i) => [p, `p${i}x`]));
    const esc = (p: string) => p.replace(/[.-]/g, '\\$&');
    let out = source;
    for (const p of prefixes) {
      const to = target.get(p) as string;
      out = out
        .replace(new RegExp(`xmlns:${esc(p)}=`, 'g'), `xmlns:${to}=`)
        .replace(new RegExp(`<(/?)${esc(p)}:`, 'g'), `<$1${to}:`)
        .replace(new RegExp(`(\\s)${esc(p)}:([\\w-]+=)`, 'g'), `$1${to}:$2`)
        .replace(new RegExp(`="${esc(p)}:`, 'g'), `="${to}:`)
        .replace(new RegExp(`>(\\s*)${esc(p)}:`, 'g'), `>$1${to}:`);
    }
    return out;
  }

  for (const name of [
    'Prod223_2911_SC312961_20200930.html',
    'Prod223_2911_04457427_20201231.html',
    'aapl-20200926.htm',
  ]) {
    it(`${name}: the same facts whatever the prefixes`, () => {
      const source = readFileSync(join(DIR, name), 'utf8');
      const renamed = renamePrefixes(source);
      expect(renamed).not.toBe(source);
      expect(renamed).not.toMatch(/name="(d|core|us-gaap):/);
      const kind = name.startsWith('aapl') ? 'sec-ixbrl' : 'ch-accounts';
      const a = parseInlineXbrl(source, { kind, sourceName: name });
      const b = parseInlineXbrl(renamed, { kind, sourceName: name });
      expect(b.facts.length).toBeGreaterThan(40);
      // Facts whose VALUE is a QName (us-gaap's …ExtensibleList) keep their text as written: the
      // prefix in the value is the filing's (reading it as a QName needs the taxonomy's types).
      const qnameValued = (f: Filing['facts'][number]) => f.concept.localName.endsWith('ExtensibleList');
      expect(b.facts.filter(qnameValued).map((f) => f.value?.split(':')[1])).toEqual(
        a.facts.filter(qnameValued).map((f) => f.value?.split(':')[1]),
      );
      expect({ ...b, facts: b.facts.filter((f) => !qnameValued(f)) }).toEqual({
        ...a,
        facts: a.facts.filter((f) => !qnameValued(f)),
      });
      expect(normalise(b)).toEqual(normalise(a));
    });
  }
});

describe('bad input', () => {
  const sc = readFileSync(join(DIR, 'Prod223_2911_SC312961_20200930.html'));
  it('a truncated filing is a clear error naming the file', () => {
    const cut = sc.subarray(0, Math.floor(sc.length / 2));
    expect(() => parseInlineXbrl(cut, { kind: 'ch-accounts', sourceName: 'cut.html' })).toThrow(InlineXbrlError);
    try {
      parseInlineXbrl(cut, { kind: 'ch-accounts', sourceName: 'cut.html' });
    } catch (e) {
      expect((e as InlineXbrlError).message).toMatch(/^cut\.html: /);
      expect((e as InlineXbrlError).reason).toBe('truncated');
    }
  });
  it('an HTML page with no inline XBRL, plain text and an empty file are "not XBRL"', () => {
    for (const [input, name] of [
      ['<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Hello</p></body></html>', 'page.html'],
      ['just some text', 'notes.txt'],
      ['', 'empty.html'],
    ]) {
      let error: unknown;
      try {
        parseInlineXbrl(input, { kind: 'ch-accounts', sourceName: name });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InlineXbrlError);
      expect((error as Error).message.startsWith(`${name}: `)).toBe(true);
    }
  });
  it('broken markup is "malformed" with the place named', () => {
    const broken = sc.toString('utf8').replace('</xbrli:context>', '</xbrli:contxt>');
    expect(() => parseInlineXbrl(broken, { kind: 'ch-accounts', sourceName: 'broken.html' })).toThrow(
      /^broken\.html: not well-formed XHTML: .*\d+:\d+/,
    );
  });
});

describe('company numbers', () => {
  it('restores leading zeros and keeps prefixes', () => {
    expect(normaliseCompanyNumber('5078870')).toBe('05078870');
    expect(normaliseCompanyNumber('390616')).toBe('00390616');
    expect(normaliseCompanyNumber('SC312961')).toBe('SC312961');
    expect(normaliseCompanyNumber('sc 12961')).toBe('SC012961');
    expect(normaliseCompanyNumber('NI1234')).toBe('NI001234');
    expect(normaliseCompanyNumber('OC300001')).toBe('OC300001');
    expect(normaliseCompanyNumber('123456789')).toBeNull();
    expect(normaliseCompanyNumber('ABC')).toBeNull();
  });
});
