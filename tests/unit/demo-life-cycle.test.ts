import { describe, expect, it } from 'vitest';
import { chStatusOfDay, LIFE_STAGE, lifeStage } from '../../db/seed/demo-advance.ts';

// `demo advance`'s life cycles (docs/decisions/0014-importers.md "Demo updates"): a Companies House
// row's status only moves forward — active → in liquidation → dissolved, a step a day at most.

describe('demo life cycles', () => {
  it('takes one step forward a day, never back', () => {
    const day = '2026-12-03';
    expect(chStatusOfDay({ status: 'active', status_since: null }, day, true)).toBe('in-liquidation');
    expect(chStatusOfDay({ status: null, status_since: null }, day, true)).toBe('in-liquidation');
    // In liquidation since an earlier day (or since the seed): dissolved.
    expect(chStatusOfDay({ status: 'in-liquidation', status_since: '2026-12-02' }, day, true)).toBe('dissolved');
    expect(chStatusOfDay({ status: 'in-liquidation', status_since: null }, day, true)).toBe('dissolved');
    expect(chStatusOfDay({ status: 'bankrupt', status_since: '2026-11-01' }, day, true)).toBe('dissolved');
    // Put into liquidation on this very day: the same day again keeps it there.
    expect(chStatusOfDay({ status: 'in-liquidation', status_since: day }, day, true)).toBe('in-liquidation');
    // A day without a step keeps the status; a dissolved company stays dissolved.
    expect(chStatusOfDay({ status: 'in-liquidation', status_since: null }, day, false)).toBe('in-liquidation');
    expect(chStatusOfDay({ status: 'dissolved', status_since: null }, day, true)).toBe('dissolved');
    for (const status of Object.keys(LIFE_STAGE))
      for (const step of [true, false])
        expect(lifeStage(chStatusOfDay({ status, status_since: null }, day, step))).toBeGreaterThanOrEqual(
          lifeStage(status),
        );
  });
});
