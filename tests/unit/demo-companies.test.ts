import { describe, expect, it } from 'vitest';
import { demoCompanies, readEnv } from '../../server/env.ts';

const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/registra';

describe('demo companies a start should make sure of', () => {
  it('are 20,000 in PGlite (npm start is the demo) and none in a server database unless asked', () => {
    expect(demoCompanies(readEnv({}))).toBe(20_000);
    expect(demoCompanies(readEnv({ DATABASE_URL }))).toBe(0);
  });

  it('are what SEED_COMPANIES says, in either database', () => {
    expect(demoCompanies(readEnv({ SEED_COMPANIES: '50' }))).toBe(50);
    expect(demoCompanies(readEnv({ DATABASE_URL, SEED_COMPANIES: '50' }))).toBe(50);
    expect(demoCompanies(readEnv({ SEED_COMPANIES: '0' }))).toBe(0);
  });

  it('reject a SEED_COMPANIES that is not a count, naming it', () => {
    expect(() => readEnv({ SEED_COMPANIES: '-3' })).toThrow(/SEED_COMPANIES/);
  });
});
