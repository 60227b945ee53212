// The legal notice (Impressum): who operates the site, from the operator's LEGAL_* settings, on
// /info/legal-notice/ and linked from the footer of every page; unset, the page says so.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.ts';

let unset: TestApp;
let configured: TestApp;
let companyUri: string;
beforeAll(async () => {
  [unset, configured] = await Promise.all([
    buildTestApp({ pages: 'build' }),
    buildTestApp({
      pages: 'build',
      legalNotice: {
        operator: 'Beispiel Daten GmbH',
        address: ['Musterstraße 1', '10115 Berlin', 'Germany'],
        email: 'legal@beispiel.example',
        phone: '+49 30 1234567',
        representative: 'Erika Mustermann',
        register: 'Amtsgericht Berlin-Charlottenburg, HRB 123456',
        vatId: 'DE123456789',
      },
    }),
  ]);
  const row = await sql<{ uri: string }>`select uri from legal_entities order by id limit 1`.execute(unset.db.kysely);
  companyUri = row.rows[0].uri;
});
afterAll(async () => {
  await unset?.close();
  await configured?.close();
});

const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url });
const text = (html: string) =>
  html
    .replace(/<!--.*?-->/g, '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
const footer = (html: string) => /<footer class="site-footer">(.*?)<\/footer>/s.exec(html)?.[1] ?? '';

describe('the footer of every page', () => {
  it('links the legal notice in the page’s language, on reading pages, account pages and a 404', async () => {
    const pages = [
      '/',
      '/companies/search/',
      `/companies/details/${companyUri}/`,
      '/companies/directories/jurisdictions/',
      '/info/',
      '/info/pricing/',
      '/account/login/',
      '/no-such-page/',
    ];
    for (const path of pages) {
      for (const [prefix, label] of [
        ['', 'Legal notice'],
        ['/de', 'Impressum'],
        ['/fr', 'Mentions légales'],
      ] as const) {
        const response = await get(unset, `${prefix}${path}`);
        expect(footer(response.body), `${prefix}${path}`).toContain(
          `<a href="${prefix}/info/legal-notice/">${label}</a>`,
        );
      }
    }
  });
});

describe('the legal notice page', () => {
  it('says plainly that the operator has not set it, inventing no operator', async () => {
    const en = await get(unset, '/info/legal-notice/');
    expect(en.statusCode).toBe(200);
    const body = text(en.body);
    expect(body).toContain('<h1>Legal notice</h1>');
    expect(body).toContain('The operator of this site has not set its legal notice yet');
    expect(body).not.toContain('<dl>');
    expect(text((await get(unset, '/de/info/legal-notice/')).body)).toContain(
      'Der Betreiber dieser Website hat sein Impressum noch nicht hinterlegt',
    );
    expect(text((await get(unset, '/fr/info/legal-notice/')).body)).toContain(
      'L’exploitant de ce site n’a pas encore renseigné ses mentions légales',
    );
  });

  it('shows the operator, address, contact, register entry and VAT number the operator set', async () => {
    const de = await get(configured, '/de/info/legal-notice/');
    expect(de.statusCode).toBe(200);
    const body = text(de.body);
    expect(body).toContain('<h1>Impressum</h1>');
    expect(body).toContain('<dt>Betreiber</dt><dd>Beispiel Daten GmbH</dd>');
    expect(body).toMatch(/<address>.*Musterstraße 1.*<br\/>.*10115 Berlin.*<br\/>.*Germany.*<\/address>/s);
    expect(body).toContain('<a href="mailto:legal@beispiel.example">legal@beispiel.example</a>');
    expect(body).toContain('<a href="tel:+49301234567">+49 30 1234567</a>');
    expect(body).toContain('<dt>Vertreten durch</dt><dd>Erika Mustermann</dd>');
    expect(body).toContain('<dd>Amtsgericht Berlin-Charlottenburg, HRB 123456</dd>');
    expect(body).toContain('<dt>Umsatzsteuer-Identifikationsnummer</dt><dd>DE123456789</dd>');
    expect(body).not.toContain('has not set');
    expect(footer((await get(configured, '/')).body)).toContain('<a href="/info/legal-notice/">Legal notice</a>');
  });
});
