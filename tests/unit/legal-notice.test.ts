import { describe, expect, it } from 'vitest';
import { legalNoticeOf } from '../../core/legal/legal-notice.ts';
import { legalNoticeSettings, readEnv } from '../../server/env.ts';

describe('the legal notice from the environment', () => {
  it('is not set without LEGAL_* settings: never a made-up operator', () => {
    expect(legalNoticeSettings(readEnv({}))).toBeNull();
    expect(legalNoticeOf({ LEGAL_PHONE: '  ' })).toBeNull();
  });

  it('reads the operator, address lines, contact, register entry and VAT number', () => {
    const env = readEnv({
      LEGAL_OPERATOR: 'Beispiel Daten GmbH',
      LEGAL_ADDRESS: 'Musterstraße 1; 10115 Berlin ;Germany',
      LEGAL_EMAIL: 'legal@beispiel.example',
      LEGAL_REGISTER: 'Amtsgericht Berlin-Charlottenburg, HRB 123456',
      LEGAL_VAT_ID: 'de 123 456 789',
    });
    expect(legalNoticeSettings(env)).toEqual({
      operator: 'Beispiel Daten GmbH',
      address: ['Musterstraße 1', '10115 Berlin', 'Germany'],
      email: 'legal@beispiel.example',
      phone: undefined,
      representative: undefined,
      register: 'Amtsgericht Berlin-Charlottenburg, HRB 123456',
      vatId: 'DE123456789',
    });
  });

  it('refuses a partial notice or a malformed value at start-up, naming it', () => {
    expect(() => legalNoticeSettings(readEnv({ LEGAL_OPERATOR: 'Beispiel Daten GmbH' }))).toThrow(
      /LEGAL_ADDRESS, LEGAL_EMAIL/,
    );
    expect(() => readEnv({ LEGAL_EMAIL: 'not an email' })).toThrow(/LEGAL_EMAIL/);
    expect(() => readEnv({ LEGAL_VAT_ID: '123' })).toThrow(/LEGAL_VAT_ID/);
    expect(() => readEnv({ LEGAL_PHONE: 'call me' })).toThrow(/LEGAL_PHONE/);
  });
});
