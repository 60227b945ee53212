import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../core/accounts/secret-tokens.ts';
import { textOf } from '../support/accounts.ts';
import { pageClient } from '../support/page-forms.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createSignedInUser } from '../support/users.ts';

// Settings → API keys (ADR 0020): a key is made with a form and shown once, listed with its
// scopes and last use, used (requests per day on the page) and revoked — in en, de and fr.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pages: 'build' });
});
afterAll(() => t?.close());

const { get, post } = pageClient(() => t.app);

describe('the API keys settings page', () => {
  it('makes a key shown once, lists it, shows its use per day, and revokes it', async () => {
    const user = await createSignedInUser(t.db, 'keys-page');
    const empty = await get('/dashboard/settings/api/', user);
    expect(empty.statusCode).toBe(200);
    expect(textOf(empty.body)).toContain('No keys yet.');
    expect(textOf(empty.body)).toContain('anonymous 100 requests');

    const made = await post(
      '/dashboard/settings/api/',
      { intent: 'create', name: 'Nightly <sync>', scope: ['read'] },
      user,
    );
    expect(made.statusCode).toBe(200);
    const key = /data-testid="new-api-key">(rk_[A-Za-z0-9_-]+)</.exec(made.body)?.[1];
    expect(key).toBeDefined();
    expect(made.body).toContain('Nightly &lt;sync&gt;');
    const stored = await t.db.kysely.selectFrom('api_keys').selectAll().where('user_id', '=', user.id).execute();
    expect(stored.map((k) => [k.key_hash, k.scopes])).toEqual([[digest(key ?? ''), ['read']]]);

    // The key works, and the page never shows it again.
    const call = await t.app.inject({ url: '/api/languages', headers: { authorization: `Bearer ${key}` } });
    expect(call.statusCode).toBe(200);
    const listed = await get('/dashboard/settings/api/', user);
    expect(listed.body).not.toContain(key ?? '');
    expect(textOf(listed.body)).toContain(`${(key ?? '').slice(0, 9)}…`);
    expect(textOf(listed.body)).toContain('Requests per day');
    expect(textOf(listed.body)).not.toContain('Never');

    const revoked = await post('/dashboard/settings/api/', { intent: 'revoke', id: String(stored[0].id) }, user);
    expect(revoked.statusCode).toBe(302);
    expect(revoked.headers.location).toBe('/dashboard/settings/api/?done=revoked');
    const after = await t.app.inject({ url: '/api/languages', headers: { authorization: `Bearer ${key}` } });
    expect(after.statusCode).toBe(401);
  });

  it('says what is wrong with a form, in the page’s language', async () => {
    const user = await createSignedInUser(t.db, 'keys-page-bad');
    const noName = await post('/de/dashboard/settings/api/', { intent: 'create', name: '', scope: ['read'] }, user);
    expect(noName.statusCode).toBe(400);
    expect(textOf(noName.body)).toContain('Geben Sie dem Schlüssel einen Namen.');
    const noScope = await post('/fr/dashboard/settings/api/', { intent: 'create', name: 'x' }, user);
    expect(noScope.statusCode).toBe(400);
    expect(textOf(noScope.body)).toContain('Choisissez au moins un droit.');
  });

  it('cannot revoke another user’s key, and shows a guest no form', async () => {
    const owner = await createSignedInUser(t.db, 'keys-owner');
    const other = await createSignedInUser(t.db, 'keys-other');
    await post('/dashboard/settings/api/', { intent: 'create', name: 'mine', scope: ['read', 'manage'] }, owner);
    const [row] = await t.db.kysely.selectFrom('api_keys').select('id').where('user_id', '=', owner.id).execute();
    const attempt = await post('/dashboard/settings/api/', { intent: 'revoke', id: String(row.id) }, other);
    expect(attempt.statusCode).toBe(404);
    const still = await t.db.kysely
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', row.id)
      .executeTakeFirst();
    expect(still?.revoked_at).toBeNull();
    const guest = await get('/dashboard/settings/api/');
    expect(guest.statusCode).toBe(401);
    expect(guest.body).not.toContain('api-key-name');
  });
});
