import { describe, expect, it } from 'vitest';
import { normalise } from '../../core/ixbrl/normalise.ts';
import { parseInlineXbrl } from '../../core/ixbrl/parse.ts';
import { IXT, TransformError, transformRule } from '../../core/ixbrl/transforms.ts';

// The Inline XBRL rules one by one on small documents written here (ADR 0037): the
// transformation registries, scale and sign, continuations and exclusions, ix:hidden, contexts
// with periods and dimensions, units.

const CORE = 'http://xbrl.frc.org.uk/fr/2021-01-01/core';
const BUS = 'http://xbrl.frc.org.uk/cd/2021-01-01/business';

function doc(body: string, hidden = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
  xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi"
  xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:t1="${IXT.tr1}" xmlns:t2="${IXT.tr2}" xmlns:t3="${IXT.tr3}" xmlns:t4="${IXT.tr4}" xmlns:sec="${IXT.sec}"
  xmlns:core="${CORE}" xmlns:bus="${BUS}">
<head><title>t</title></head><body>
<div style="display:none"><ix:header>
 <ix:hidden>${hidden}</ix:hidden>
 <ix:resources>
  <xbrli:context id="cy"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">1234</xbrli:identifier></xbrli:entity>
   <xbrli:period><xbrli:startDate>2022-04-01</xbrli:startDate><xbrli:endDate>2023-03-31</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="py"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">1234</xbrli:identifier></xbrli:entity>
   <xbrli:period><xbrli:startDate>2021-04-01</xbrli:startDate><xbrli:endDate>2022-03-31</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="end"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">1234</xbrli:identifier></xbrli:entity>
   <xbrli:period><xbrli:instant>2023-03-31</xbrli:instant></xbrli:period></xbrli:context>
  <xbrli:context id="pyend"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">1234</xbrli:identifier></xbrli:entity>
   <xbrli:period><xbrli:instant>2022-03-31</xbrli:instant></xbrli:period></xbrli:context>
  <xbrli:context id="grp"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">1234</xbrli:identifier>
   <xbrli:segment><xbrldi:explicitMember dimension="bus:GroupCompanyDataDimension">bus:Consolidated</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
   <xbrli:period><xbrli:instant>2023-03-31</xbrli:instant></xbrli:period></xbrli:context>
  <xbrli:context id="seg" xmlns:other="${CORE}"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">1234</xbrli:identifier></xbrli:entity>
   <xbrli:period><xbrli:instant>2023-03-31</xbrli:instant></xbrli:period>
   <xbrli:scenario><xbrldi:explicitMember dimension="other:EquityClassesDimension">other:ShareCapital</xbrldi:explicitMember>
   <xbrldi:typedMember dimension="other:OfficerDimension"><other:officer>Jane Doe</other:officer></xbrldi:typedMember></xbrli:scenario></xbrli:context>
  <xbrli:context id="ever"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">1234</xbrli:identifier></xbrli:entity>
   <xbrli:period><xbrli:forever/></xbrli:period></xbrli:context>
  <xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit>
  <xbrli:unit id="EUR"><xbrli:measure>iso4217:EUR</xbrli:measure></xbrli:unit>
  <xbrli:unit id="pure"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit>
  <xbrli:unit id="perShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unitNumerator>
   <xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
 </ix:resources>
</ix:header></div>
${body}
</body></html>`;
}
const parse = (body: string, hidden = '') =>
  parseInlineXbrl(doc(body, hidden), { kind: 'ch-accounts', sourceName: 't.html' });
const num = (format: string, text: string, extra = '') =>
  `<ix:nonFraction name="core:Turnover" contextRef="cy" unitRef="GBP" decimals="0" format="${format}" ${extra}>${text}</ix:nonFraction>`;
const value = (body: string) => parse(body).facts[0]?.value;

describe('number formats, resolved by namespace', () => {
  const cases: [string, string, string][] = [
    ['t1:numcommadot', '1,234,567.89', '1234567.89'],
    ['t1:numdotcomma', '1.234.567,89', '1234567.89'],
    ['t1:numspacedot', '1 234 567.5', '1234567.5'],
    ['t1:numspacecomma', '1 234 567,5', '1234567.5'],
    ['t1:numcomma', '12,5', '12.5'],
    ['t1:zerodash', '-', '0'],
    ['t2:numdotdecimal', '1,234.50', '1234.5'],
    ['t2:numcommadecimal', '1.234,50', '1234.5'],
    ['t2:numcommadecimal', '1 234,5', '1234.5'],
    ['t2:zerodash', '\u2014', '0'],
    ['t2:numunitdecimal', '5 pounds 07', '5.07'],
    ['t3:numdotdecimal', "1'234.5", '1234.5'],
    ['t3:zerodash', '\u2013', '0'],
    ['t4:num-dot-decimal', '12,000', '12000'],
    ['t4:num-comma-decimal', '12.000,25', '12000.25'],
    ['t4:fixed-zero', 'nil', '0'],
    ['sec:numwordsen', 'twenty-three', '23'],
    ['sec:numwordsen', 'no', '0'],
    ['sec:numwordsen', 'one hundred and five', '105'],
  ];
  for (const [format, text, expected] of cases) {
    it(`${format} "${text}" → ${expected}`, () => expect(value(num(format, text))).toBe(expected));
  }
  it('a format of an unknown namespace is never guessed from its prefix', () => {
    const filing = parseInlineXbrl(
      doc(num('t1:numcommadot', '1,000').replace('t1:', 'ixt:')).replace(
        '<html ',
        '<html xmlns:ixt="urn:not-a-registry" ',
      ),
      { kind: 'ch-accounts', sourceName: 't.html' },
    );
    expect(filing.facts).toHaveLength(0);
    expect(filing.warnings?.[0]).toMatch(/urn:not-a-registry}numcommadot is not implemented/);
  });
  it('a value the format cannot read is skipped with a warning, not a crash', () => {
    const filing = parse(num('t2:numdotdecimal', 'twelve'));
    expect(filing.facts).toHaveLength(0);
    expect(filing.warnings?.[0]).toMatch(/numdotdecimal cannot read "twelve"/);
  });
  it('no format: the text must be a plain decimal', () => {
    expect(
      value('<ix:nonFraction name="core:X" contextRef="cy" unitRef="GBP" decimals="0"> 1234 </ix:nonFraction>'),
    ).toBe('1234');
  });
});

describe('date, boolean and SEC formats', () => {
  const cases: [string, string, string][] = [
    ['t1:datelonguk', '30 September 2020', '2020-09-30'],
    ['t1:datelongus', 'September 30, 2020', '2020-09-30'],
    ['t1:dateshortuk', '30 Sep 2020', '2020-09-30'],
    ['t1:datedoteu', '30.09.2020', '2020-09-30'],
    ['t1:dateslashus', '09/30/2020', '2020-09-30'],
    ['t2:datedaymonthyear', '30.6.20', '2020-06-30'],
    ['t2:datedaymonthyearen', '6th May 2021', '2021-05-06'],
    ['t2:datemonthdayyear', '6/30/2020', '2020-06-30'],
    ['t2:datemonthdayyearen', 'September\u00a026, 2020', '2020-09-26'],
    ['t2:dateyearmonthday', '2020-06-30', '2020-06-30'],
    ['t3:datedaymonthyear', '31/12/2021', '2021-12-31'],
    ['t3:datemonthyearen', 'December 2021', '2021-12'],
    ['t4:date-day-month-year', '31-12-2021', '2021-12-31'],
    ['t4:date-year-month-day', '2021/12/31', '2021-12-31'],
    ['t4:date-day-monthname-year-en', '1st January 2022', '2022-01-01'],
    ['t2:booleantrue', 'Yes', 'true'],
    ['t2:booleanfalse', 'No', 'false'],
    ['t2:nocontent', '', ''],
    ['t4:fixed-empty', 'anything', ''],
    ['sec:boolballotbox', '\u2612', 'true'],
    ['sec:boolballotbox', '\u2610', 'false'],
    ['sec:duryear', '10.5', 'P10Y6M'],
    ['sec:durwordsen', 'five years', 'P5Y'],
    ['sec:stateprovnameen', 'California', 'CA'],
    ['sec:exchnameen', 'The Nasdaq Stock Market LLC', 'NASDAQ'],
  ];
  for (const [format, text, expected] of cases) {
    it(`${format} "${text}" → ${expected}`, () =>
      expect(
        value(`<ix:nonNumeric name="bus:Something" contextRef="cy" format="${format}">${text}</ix:nonNumeric>`),
      ).toBe(expected));
  }
  it('an impossible date is an error of the rule', () => {
    const rule = transformRule(IXT.tr2, 'datedaymonthyear');
    expect(() => rule?.('31.2.21')).toThrow(TransformError);
  });
});

describe('scale, sign, decimals, nil, units', () => {
  it('scale moves the decimal point exactly, both ways', () => {
    expect(value(num('t2:numdotdecimal', '1,234.5', 'scale="6"'))).toBe('1234500000');
    expect(value(num('t2:numdotdecimal', '25', 'scale="-2"'))).toBe('0.25');
    expect(value(num('t2:numdotdecimal', '3', 'scale="-4"'))).toBe('0.0003');
    expect(value(num('t2:numdotdecimal', '0.001', 'scale="3"'))).toBe('1');
    // 17 significant digits stay exact (no floating point on the way).
    expect(value(num('t2:numdotdecimal', '12,345,678,901,234,567', 'scale="3"'))).toBe('12345678901234567000');
  });
  it('sign="-" makes the value negative; zero stays 0', () => {
    expect(value(num('t1:numcommadot', '1,234', 'sign="-" scale="3"'))).toBe('-1234000');
    expect(value(num('t1:zerodash', '-', 'sign="-"'))).toBe('0');
  });
  it('decimals, xsi:nil, units and currencies', () => {
    const filing = parse(`
      <ix:nonFraction name="core:A" contextRef="cy" unitRef="GBP" decimals="-3" format="t2:numdotdecimal" scale="3">5</ix:nonFraction>
      <ix:nonFraction name="core:B" contextRef="cy" unitRef="pure" decimals="INF">7</ix:nonFraction>
      <ix:nonFraction name="core:C" contextRef="cy" unitRef="GBP" xsi:nil="true"/>
      <ix:nonFraction name="core:D" contextRef="cy" unitRef="perShare" decimals="2">0.52</ix:nonFraction>`);
    const by = (n: string) => filing.facts.find((f) => f.concept.localName === n);
    expect(by('A')).toMatchObject({ value: '5000', decimals: -3, unit: 'iso4217:GBP', currency: 'GBP' });
    expect(by('B')).toMatchObject({ value: '7', decimals: 'INF', unit: 'xbrli:pure', currency: null });
    expect(by('C')).toMatchObject({ value: null, numeric: true });
    expect(by('D')).toMatchObject({ value: '0.52', unit: 'iso4217:GBP/xbrli:shares', currency: null });
  });
  it('a nested nonFraction gives both facts the same value', () => {
    const filing = parse(
      `<ix:nonFraction name="core:Outer" contextRef="cy" unitRef="GBP" decimals="0" format="t2:numdotdecimal"><ix:nonFraction name="core:Inner" contextRef="py" unitRef="GBP" decimals="0" format="t2:numdotdecimal">1,500</ix:nonFraction></ix:nonFraction>`,
    );
    expect(filing.facts.map((f) => [f.concept.localName, f.value, f.contextId])).toEqual([
      ['Outer', '1500', 'cy'],
      ['Inner', '1500', 'py'],
    ]);
  });
  it('ix:fraction', () => {
    const filing = parse(
      '<ix:fraction name="core:Share" contextRef="cy" unitRef="pure"><ix:numerator>1</ix:numerator>/<ix:denominator>4</ix:denominator></ix:fraction>',
    );
    expect(filing.facts[0]).toMatchObject({ value: '0.25', numeric: true });
  });
});

describe('nonNumeric text', () => {
  it('continuations are joined in order and exclusions removed', () => {
    const filing = parse(`
      <p><ix:nonNumeric name="core:Policy" contextRef="cy" continuedAt="c1">The company <ix:exclude>[page 3]</ix:exclude>prepares</ix:nonNumeric></p>
      <p>Unrelated text.</p>
      <ix:continuation id="c1" continuedAt="c2"><p>its accounts</p></ix:continuation>
      <p>More unrelated text.</p>
      <ix:continuation id="c2">under <ix:exclude>Page 4</ix:exclude>FRS 102.</ix:continuation>`);
    expect(filing.facts[0].value).toBe('The company prepares its accounts under FRS 102.');
  });
  it('block elements inside a fact separate words; entities of HTML are read', () => {
    const filing = parse(
      '<ix:nonNumeric name="core:Names" contextRef="cy"><p>Alice&nbsp;Smith</p><p>Bob</p></ix:nonNumeric>',
    );
    // &nbsp; is read, and as white space collapsed to one space like the rest.
    expect(filing.facts[0].value).toBe('Alice Smith Bob');
  });
  it('a Latin-1 document is decoded as its declaration says; a UTF-8 byte-order mark is dropped', () => {
    const latin = Buffer.from(
      doc('<ix:nonNumeric name="core:Note" contextRef="cy">£5 café</ix:nonNumeric>').replace(
        'encoding="utf-8"',
        'encoding="ISO-8859-1"',
      ),
      'latin1',
    );
    expect(parseInlineXbrl(latin, { kind: 'ch-accounts', sourceName: 'l.html' }).facts[0].value).toBe('£5 café');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(doc(num('t2:numdotdecimal', '7')))]);
    expect(parseInlineXbrl(bom, { kind: 'ch-accounts', sourceName: 'b.html' }).facts[0].value).toBe('7');
  });
  it('a block element inside a number does not split it', () => {
    expect(value(num('t2:numdotdecimal', '<span>1,2</span><span>34</span>'))).toBe('1234');
  });
  it('a chain that loops ends', () => {
    const filing = parse(`
      <ix:nonNumeric name="core:Loop" contextRef="cy" continuedAt="a">one</ix:nonNumeric>
      <ix:continuation id="a" continuedAt="b">two</ix:continuation>
      <ix:continuation id="b" continuedAt="a">three</ix:continuation>`);
    expect(filing.facts[0].value).toBe('one two three');
  });
});

describe('hidden facts, contexts and dimensions', () => {
  it('facts in ix:hidden are marked hidden; others not', () => {
    const filing = parse(
      '<ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cy">Shown Ltd</ix:nonNumeric>',
      '<ix:nonNumeric name="bus:UKCompaniesHouseRegisteredNumber" contextRef="cy">1234</ix:nonNumeric><ix:nonNumeric name="bus:BalanceSheetDate" contextRef="end">2023-03-31</ix:nonNumeric>',
    );
    expect(filing.facts.map((f) => [f.concept.localName, f.hidden])).toEqual([
      ['UKCompaniesHouseRegisteredNumber', true],
      ['BalanceSheetDate', true],
      ['EntityCurrentLegalOrRegisteredName', false],
    ]);
    expect(filing.companyNumber).toBe('00001234');
    expect(filing.name).toBe('Shown Ltd');
    expect(filing.periodEnd).toBe('2023-03-31');
  });
  it('periods (duration, instant, forever) and explicit and typed dimensions, resolved where declared', () => {
    const filing = parse(`
      <ix:nonFraction name="core:A" contextRef="cy" unitRef="GBP" decimals="0">1</ix:nonFraction>
      <ix:nonFraction name="core:B" contextRef="end" unitRef="GBP" decimals="0">2</ix:nonFraction>
      <ix:nonFraction name="core:C" contextRef="seg" unitRef="GBP" decimals="0">3</ix:nonFraction>
      <ix:nonNumeric name="core:D" contextRef="ever">x</ix:nonNumeric>`);
    const [a, b, c, d] = filing.facts;
    expect(a.period).toEqual({ kind: 'duration', start: '2022-04-01', end: '2023-03-31' });
    expect(b.period).toEqual({ kind: 'instant', date: '2023-03-31' });
    expect(d.period).toEqual({ kind: 'forever' });
    expect(a.dimensions).toEqual([]);
    expect(c.dimensions).toEqual([
      {
        axis: { namespace: CORE, localName: 'EquityClassesDimension' },
        member: { namespace: CORE, localName: 'ShareCapital' },
        typedValue: null,
      },
      { axis: { namespace: CORE, localName: 'OfficerDimension' }, member: null, typedValue: 'Jane Doe' },
    ]);
    expect(filing.entityScheme).toBe('http://www.companieshouse.gov.uk/');
  });
  it('a fact naming a context that does not exist is skipped with a warning', () => {
    const filing = parse(
      '<ix:nonFraction name="core:A" contextRef="nope" unitRef="GBP" decimals="0">1</ix:nonFraction>',
    );
    expect(filing.facts).toEqual([]);
    expect(filing.warnings?.[0]).toMatch(/context nope is missing/);
  });
});

describe('normalise', () => {
  it('company and consolidated apart, comparatives marked, other dimensions left out, one currency', () => {
    const filing = parse(`
      <ix:nonFraction name="core:TurnoverRevenue" contextRef="cy" unitRef="GBP" decimals="0">1000</ix:nonFraction>
      <ix:nonFraction name="core:TurnoverRevenue" contextRef="py" unitRef="GBP" decimals="0">900</ix:nonFraction>
      <ix:nonFraction name="core:NetAssetsLiabilities" contextRef="end" unitRef="GBP" decimals="0">50</ix:nonFraction>
      <ix:nonFraction name="core:NetAssetsLiabilities" contextRef="grp" unitRef="GBP" decimals="0">80</ix:nonFraction>
      <ix:nonFraction name="core:Equity" contextRef="seg" unitRef="GBP" decimals="0">999</ix:nonFraction>
      <ix:nonFraction name="core:CurrentAssets" contextRef="end" unitRef="EUR" decimals="0">70</ix:nonFraction>
      <ix:nonFraction name="core:CurrentAssets" contextRef="end" unitRef="GBP" decimals="0">60</ix:nonFraction>
      <ix:nonFraction name="core:FixedAssets" contextRef="end" unitRef="GBP" decimals="0">15</ix:nonFraction>`);
    const rows = normalise(filing);
    expect(rows.map((r) => [r.periodEnd, r.scope, r.comparative])).toEqual([
      ['2023-03-31', 'company', false],
      ['2023-03-31', 'consolidated', false],
      ['2022-03-31', 'company', true],
    ]);
    const [now, group, before] = rows;
    expect(now).toMatchObject({ periodStart: '2022-04-01', revenue: '1000', netAssets: '50', currency: 'GBP' });
    expect(now.currentAssets).toBe('60');
    expect(now.totalAssets).toBe('75'); // derived: fixed 15 + current 60
    expect(now.totalLiabilities).toBe('25'); // derived: 75 − 50
    expect(now.concepts.revenue).toBe(`${CORE}#TurnoverRevenue`);
    expect(now.concepts.totalAssets).toMatch(/^derived:/);
    expect(group).toMatchObject({ netAssets: '80', revenue: null });
    expect(before).toMatchObject({ revenue: '900', periodStart: '2021-04-01', netAssets: null });
  });
});
