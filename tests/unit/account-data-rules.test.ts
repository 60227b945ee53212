import { describe, expect, it } from 'vitest';
import { normaliseContact } from '../../core/contacts/user-contacts.ts';
import { orderAmount } from '../../core/orders/orders.ts';
import { checkColumns } from '../../core/table-views/table-view-settings.ts';
import {
  checkVisitor,
  utmCookie,
  utmOfCookie,
  visitorCookie,
  visitorIdOf,
  visitorOfLanding,
} from '../../core/visitors/visitors.ts';

// The pure rules behind contacts, orders, table views and visitors (the API tests cover the routes).

describe('contacts', () => {
  it('keeps each type in one spelling that duplicates are compared by', () => {
    expect(normaliseContact('Email', ' Anna@Example.COM ')).toEqual({
      type: 'email',
      contact: 'anna@example.com',
      normalized: 'anna@example.com',
    });
    expect(normaliseContact('phone', '+49 (30)  123-4567')).toEqual({
      type: 'phone',
      contact: '+49 (30) 123-4567',
      normalized: '+49301234567',
    });
    expect(normaliseContact('fax', '0049 30 1234567').normalized).toBe('+49301234567');
    expect(normaliseContact('phone', '030 1234567').normalized).toBe('0301234567');
    expect(normaliseContact('website', 'WWW.Example.com')).toEqual({
      type: 'website',
      contact: 'https://www.example.com',
      normalized: 'www.example.com',
    });
    expect(normaliseContact('website', 'http://example.com/about/#team')).toMatchObject({
      contact: 'http://example.com/about/',
      normalized: 'example.com/about',
    });
  });

  it('refuses what is not a contact of its type, naming the field', () => {
    for (const [type, contact] of [
      ['email', 'anna@'],
      ['phone', '12345'],
      ['phone', '+49 30 12a4567'],
      ['phone', '1234567890123456'],
      ['website', 'javascript:alert(1)'],
      ['website', 'exa mple.com'],
      ['website', 'example'],
      ['website', 'https://-bad-.com'],
    ]) {
      expect(() => normaliseContact(type, contact), `${type} ${contact}`).toThrow(
        expect.objectContaining({ code: 'bad_request', details: expect.objectContaining({ parameter: 'contact' }) }),
      );
    }
    expect(() => normaliseContact('telex', '123')).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ parameter: 'type' }) }),
    );
  });
});

describe('order amounts', () => {
  it('are exact decimal text in the currency’s minor unit', () => {
    expect(orderAmount('12.5', 2)).toBe('12.50');
    expect(orderAmount('0012', 2)).toBe('12.00');
    expect(orderAmount('12.500', 2)).toBe('12.50');
    expect(orderAmount('1000', 0)).toBe('1000');
    expect(orderAmount('1.250', 3)).toBe('1.250');
    expect(orderAmount('999999999999.99', 2)).toBe('999999999999.99');
  });

  it('refuse too many decimals, zero, signs and exponents', () => {
    for (const [raw, minor] of [
      ['12.345', 2],
      ['1.5', 0],
      ['0', 2],
      ['0.00', 2],
      ['-1', 2],
      ['1e3', 2],
      ['1,50', 2],
      ['1000000000000', 2],
    ] as const) {
      expect(() => orderAmount(raw, minor), raw).toThrow(
        expect.objectContaining({ details: expect.objectContaining({ parameter: 'amount' }) }),
      );
    }
  });
});

describe('table view columns', () => {
  it('must be declared columns of the section, each once; all of them in order is the default', () => {
    expect(checkColumns('vessels', ['vessel_name', 'imo_number'])).toEqual(['vessel_name', 'imo_number']);
    expect(checkColumns('vessels', null)).toBeNull();
    expect(() => checkColumns('vessels', ['revenue'])).toThrow(/no column "revenue"/);
    expect(() => checkColumns('vessels', ['imo_number', 'imo_number'])).toThrow(/twice/);
    expect(() => checkColumns('vessels', [])).toThrow(/at least one/);
    expect(() => checkColumns('spaceships', ['x'])).toThrow(/Unknown search section/);
  });
});

describe('visitors', () => {
  const landing = (query: string, cookieUtm = {}) =>
    visitorOfLanding({
      uid: 'uid-12345678',
      params: new URLSearchParams(query),
      userAgent: 'Mozilla/5.0',
      host: 'Registra.Example:8080',
      cookieUtm,
    });

  it('takes the partner, the UTM parameters and the tool from the landing URL, leniently', () => {
    expect(landing('partner=42&utm_source=mail&utm_term=%20kyc%20&product_id=5&tool_id=6&tool_type=Widget')).toEqual({
      uid: 'uid-12345678',
      user_agent: 'Mozilla/5.0',
      site_id: 'registra.example:8080',
      user_id: 42,
      utm_term: 'kyc',
      utm_source: 'mail',
      utm_medium: null,
      utm_content: null,
      utm_campaign: null,
      product_id: 5,
      tool_id: 6,
      tool_type: 'widget',
    });
    expect(landing('partner=0&ref=x&product_id=99999999999&tool_type=a%20b')).toMatchObject({
      user_id: 1000,
      product_id: null,
      tool_type: null,
    });
    expect(landing('', { utm_source: 'kept' }).utm_source).toBe('kept');
    expect(landing('utm_medium=cpc', { utm_source: 'kept' })).toMatchObject({ utm_source: null, utm_medium: 'cpc' });
  });

  it('reads back the cookies it writes, and ignores a malformed uid', () => {
    const jar = [utmCookie({ utm_source: 'a&b=c; d', utm_campaign: 'ü' }, false), visitorCookie('abcdefgh-1234', true)]
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(utmOfCookie(jar)).toEqual({ utm_source: 'a&b=c; d', utm_campaign: 'ü' });
    expect(visitorIdOf(jar)).toBe('abcdefgh-1234');
    expect(visitorIdOf('uid=<script>')).toBeNull();
    expect(visitorCookie('abcdefgh-1234', true)).toBe(
      'uid=abcdefgh-1234; Max-Age=31536000; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
  });

  it('checks a posted visitor strictly', () => {
    expect(checkVisitor({ uid: 'abcdefgh', site_id: 'partner.example' })).toMatchObject({
      user_id: 1000,
      user_agent: '',
      utm_source: null,
    });
    expect(() => checkVisitor({ uid: 'abcdefgh', site_id: 'partner.example', utm_term: 'x'.repeat(201) })).toThrow(
      /utm_term may take at most 200/,
    );
    expect(() => checkVisitor({ uid: 'abcdefgh', site_id: 'Partner.Example' })).toThrow(/site_id/);
  });
});
