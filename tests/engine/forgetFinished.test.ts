import { describe, expect, it } from 'vitest';
import { timeIndex, fromIndex } from '../../src/engine/clock/gameTime.js';
import type { CampaignState, ContactRecord, CourierRecord } from '../../src/engine/state/index.js';
import { forgetFinished } from '../../src/engine/tick/forgetFinished.js';
import { makeState, withContact } from './contactFixtures.js';

/** The state with contact c1 closed at `closedAt` (quiet until the half period after). */
function closedAt(state: CampaignState, closedAtIndex: number): CampaignState {
  const c = state.contacts['c1'] as ContactRecord;
  const closed: ContactRecord = { ...c, openedAt: fromIndex(closedAtIndex), step: 'closed', data: { ...c.data, quietUntil: closedAtIndex + 1 } };
  return { ...state, contacts: { c1: closed } };
}

const courier = (id: string, status: CourierRecord['status'], senderTold?: boolean): CourierRecord => ({
  id, fromArmy: 'a', toArmy: 'b', side: 'law', hex: { q: 0, r: 0 }, message: 'hold', sentAt: { day: 1, half: 0 }, status,
  data: { horse: true, night: false, carry: 0, expectedBy: 4, trail: [], ...(senderTold !== undefined ? { senderTold } : {}) },
});

describe('the live state holds what the rules need (issue: a campaign that lasts a season)', () => {
  const base = withContact(makeState({ a: { side: 'law', hex: '0101' }, b: { side: 'chaos', hex: '0201' } }), ['a', 'b']);

  it('GIVEN an open contact THEN it stays, however old', () => {
    const later = { ...base, clock: fromIndex(timeIndex(base.clock) + 40) };
    expect(forgetFinished(later).contacts['c1']).toBeDefined();
  });

  it('GIVEN a contact closed this half period THEN it stays while its quiet (fight on the morrow) and the exploit window last, and leaves after', () => {
    const at = timeIndex(base.clock);
    const closed = closedAt(base, at);
    expect(forgetFinished(closed).contacts['c1']).toBeDefined();
    expect(forgetFinished({ ...closed, clock: fromIndex(at + 1) }).contacts['c1']).toBeDefined();
    expect(forgetFinished({ ...closed, clock: fromIndex(at + 2) }).contacts['c1']).toBeUndefined();
  });

  it('GIVEN a delivered courier and a captured one whose sender was told THEN they leave; one travelling, or captured with the sender not yet told, stays', () => {
    const told = courier('k2', 'captured', true);
    const s = { ...base, couriers: { k1: courier('k1', 'delivered'), k2: told, k3: courier('k3', 'travelling'), k4: courier('k4', 'captured') } };
    expect(Object.keys(forgetFinished(s).couriers)).toEqual(['k3', 'k4']);
  });

  it('GIVEN nothing to forget THEN the same state comes back', () => {
    expect(forgetFinished(base)).toBe(base);
  });
});
