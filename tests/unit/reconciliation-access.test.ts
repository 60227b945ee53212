import { describe, expect, it } from 'vitest';
import { isCrossOrigin } from '../../core/accounts/csrf.ts';
import { entityIdOf } from '../../core/reconciliation/reconcile.ts';
import { isReconciliationPath } from '../../server/api/api-path.ts';
import { apiKeyParameter, JSONP_CALLBACK, withoutApiKey } from '../../server/plugins/reconciliation-access.ts';

// The rules of other origins' access to the reconciliation service (ADR 0034).

describe('reconciliation access rules', () => {
  it('opens the reconciliation routes alone', () => {
    for (const url of ['/api/reconcile', '/api/reconcile?queries=x', '/api/reconcile/suggest/entity?prefix=a']) {
      expect(isReconciliationPath(url), url).toBe(true);
    }
    for (const url of [
      '/api/reconciled',
      '/api/reconcile-x',
      '/reconcile',
      '/api/match',
      '/api/site/data/v1/legal_entities',
    ]) {
      expect(isReconciliationPath(url), url).toBe(false);
    }
  });

  it('takes JavaScript function names as JSONP callbacks, and nothing that could be other script', () => {
    for (const name of ['cb', 'jQuery37109_1733250000000', '$', '_x', 'refine.cb', 'a.b.c.d']) {
      expect(JSONP_CALLBACK.test(name), name).toBe(true);
    }
    for (const name of [
      '',
      '1a',
      'a-b',
      'a..b',
      'a.',
      '.a',
      'a(1)',
      'alert(1)//',
      'a b',
      'a;b',
      'a\nb',
      'a.b.c.d.e',
      'x'.repeat(65),
    ]) {
      expect(JSONP_CALLBACK.test(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('tells another origin or site from ours', () => {
    const siteOrigins = ['https://registra.example'];
    expect(isCrossOrigin({ siteOrigins })).toBe(false);
    expect(isCrossOrigin({ siteOrigins, secFetchSite: 'same-origin', origin: 'https://registra.example' })).toBe(false);
    expect(isCrossOrigin({ siteOrigins, secFetchSite: 'none' })).toBe(false);
    expect(isCrossOrigin({ siteOrigins, secFetchSite: 'same-site' })).toBe(true);
    expect(isCrossOrigin({ siteOrigins, secFetchSite: 'cross-site' })).toBe(true);
    expect(isCrossOrigin({ siteOrigins, origin: 'https://registra.example:8443' })).toBe(true);
    expect(isCrossOrigin({ siteOrigins, origin: 'null' })).toBe(true);
  });

  it('reads a key from api_key on the reconciliation routes only, and keeps it out of logged URLs', () => {
    expect(apiKeyParameter('/api/reconcile?api_key=rk_abc')).toEqual({ token: 'rk_abc' });
    expect(apiKeyParameter('/api/reconcile?api_key=')).toHaveProperty('refused');
    expect(apiKeyParameter('/api/reconcile')).toBeNull();
    expect(apiKeyParameter('/api/match?api_key=rk_abc')).toBeNull();
    expect(withoutApiKey('/api/reconcile?queries=x&api_key=rk_secret&b=1')).toBe(
      '/api/reconcile?queries=x&api_key=…&b=1',
    );
    expect(withoutApiKey('/api/reconcile?api_key=rk_secret')).not.toContain('rk_secret');
  });

  it('knows an entity id or a profile address from a name', () => {
    expect(entityIdOf('langosh-paving-llc-10029')).toBe('langosh-paving-llc-10029');
    expect(entityIdOf(' https://registra.example/fr/companies/details/acme-gmbh-12/ ')).toBe('acme-gmbh-12');
    expect(entityIdOf('http://localhost:3000/companies/details/m%C3%BCller-ag-7')).toBe('müller-ag-7');
    for (const text of [
      'Acme GmbH',
      '10029',
      'HRB 12345',
      'Route 66',
      'https://registra.example/companies/search/',
      'https://x/companies/details/%E0%A4%A/',
      undefined,
    ]) {
      expect(entityIdOf(text), String(text)).toBeNull();
    }
  });
});
