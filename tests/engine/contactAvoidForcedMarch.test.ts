import { describe, expect, it } from 'vitest';
import { canAvoidTo, chooseStep1, resolveStep1 } from '../../src/engine/contact/index.js';
import { forcedMarchExtra } from '../../src/engine/contact/moveCost.js';
import type { Army, MarchState } from '../../src/engine/forces/army.js';
import { formatHex } from '../../src/engine/hex/hexId.js';
import { fatigueOnMoving } from '../../src/engine/movement/restAndFatigue.js';
import { VALORMR_PROFILE } from '../../src/engine/profiles/index.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { asciiMap, dice, hx, makeState, withContact } from './contactFixtures.js';

// Infantry: 12 points a day, 18 on a forced march (extra 6); a clear hex costs 6.
const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

/** Hadewych (Chaos, 0303) in contact with Ingegerd (Law, 0302); Hadewych's march books patched. */
function contact(march: Partial<MarchState>, status: Partial<Army['status']> = {}): CampaignState {
  const s = withContact(makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } }), ['hadewych', 'ingegerd']);
  const h = s.armies['hadewych'] as Army;
  return { ...s, armies: { ...s.armies, hadewych: { ...h, march: { ...h.march, allowanceToday: 12, ...march }, status: { ...h.status, ...status } } } };
}

describe('001 Avoid: "enough move points to move into an adjacent hex or be able to conduct a forced march"', () => {
  it('GIVEN points left short of the hex but covered with the forced march extra THEN the avoid is accepted as a forced march', () => {
    const s = contact({ pointsLeft: 4, spentToday: 8 });
    expect(forcedMarchExtra(s, s.armies['hadewych']!)).toBe(6);
    const r = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') }));
    expect(r.avoid).toMatchObject({ points: 6, forcedMarch: true, extra: 6, unformed: false });
  });

  it('GIVEN an avoid by forced march THEN the army moves, pays from the enlarged day, and tomorrow must be rest or fatigue', () => {
    let s = contact({ pointsLeft: 4, spentToday: 8 });
    s = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') })).state;
    // 6 + 3 = 9 against 1 + 3 = 4: +5, negligible.
    const out = must(resolveStep1(s, clear, 'c1', dice(6, 1)));
    const h = out.state.armies['hadewych']!;
    expect(formatHex(h.hex)).toBe('0304');
    expect(h.march).toMatchObject({ pointsLeft: 4, spentToday: 14, allowanceToday: 18, forcedMarchDay: 1 });
    expect(out.state.contacts['c1']!.data.outcome).toBe('disengaged');
    // The commander is told; the channel hears only the move (no points).
    const told = out.events.find((e) => e.type === 'avoidForcedMarch');
    expect(told?.audience).toEqual({ kind: 'army', armyId: 'hadewych' });
    expect(told?.data).toEqual({ armyId: 'hadewych', to: '0304', day: 1 });
    expect(out.events.filter((e) => e.audience.kind === 'public').map((e) => e.type)).not.toContain('avoidForcedMarch');
    expect(out.events.find((e) => e.type === 'armyAvoided')?.data).toEqual({ armyId: 'hadewych', to: '0304' });
    // The movement rules' next-day rule applies: moving tomorrow without rest fatigues.
    expect(fatigueOnMoving({ ...h, march: { ...h.march, movedToday: false } }, { day: 2, half: 0 }, VALORMR_PROFILE)).toBe('forcedMarch');
  });

  it('GIVEN enough points left THEN the avoid is no forced march and the books stay clean', () => {
    let s = contact({ pointsLeft: 12 });
    const r = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') }));
    expect(r.avoid).toMatchObject({ points: 6, forcedMarch: false, extra: 0, unformed: false });
    s = r.state;
    const out = must(resolveStep1(s, clear, 'c1', dice(6, 1)));
    expect(out.state.armies['hadewych']!.march.pointsLeft).toBe(6);
    expect(out.state.armies['hadewych']!.march.forcedMarchDay).toBeUndefined();
    expect(out.events.some((e) => e.type === 'avoidForcedMarch')).toBe(false);
  });

  it('GIVEN the army already force-marched today THEN there is no extra, and the refusal says so', () => {
    const s = contact({ pointsLeft: 4, forcedMarchDay: 1 });
    expect(forcedMarchExtra(s, s.armies['hadewych']!)).toBe(0);
    const r = chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') });
    expect(r.ok ? '' : r.violation.code).toBe('contact.avoidNoPoints');
    expect(r.ok ? '' : r.violation.message).toMatch(/needs 6 move points; Hadewych has 4 left today and it has already force-marched today/);
    // A forced march yesterday is no forced march today: the extra is there again.
    expect(forcedMarchExtra({ ...s, clock: { day: 2, half: 0 } }, s.armies['hadewych']!)).toBe(6);
  });

  it('GIVEN even a forced march falls short THEN refused with both numbers', () => {
    const s = contact({ pointsLeft: 0 });
    const mountain = asciiMap(['mmmmmmm', 'mmmmmmm', 'mmmmmmm', 'mmmmmmm', 'mmmmmmm', 'mmmmmmm']);
    const r = canAvoidTo(s, mountain, s.armies['hadewych']!, hx('0304'));
    expect(r.ok ? '' : r.violation.code).toBe('contact.avoidNoPoints');
    expect(r.ok ? {} : r.violation.details).toMatchObject({ have: 0, withForcedMarch: 6 });
  });

  it('GIVEN a fatigued army THEN the extra is the movement rules\' (18 x 0.75 = 13 against 12 x 0.75 = 9: 4)', () => {
    const s = contact({ pointsLeft: 1 }, { fatigued: true });
    expect(forcedMarchExtra(s, s.armies['hadewych']!)).toBe(4);
    const short = chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') });
    expect(short.ok ? '' : short.violation.code).toBe('contact.avoidNoPoints');
    const s2 = contact({ pointsLeft: 2 }, { fatigued: true });
    expect(must(chooseStep1(s2, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') })).avoid?.forcedMarch).toBe(true);
  });

  it('GIVEN the points change before the step is resolved THEN the resolution judges again', () => {
    let s = contact({ pointsLeft: 12 });
    s = must(chooseStep1(s, clear, 'c1', 'hadewych', { kind: 'avoid', to: hx('0304') })).state;
    const h = s.armies['hadewych']!;
    s = { ...s, armies: { ...s.armies, hadewych: { ...h, march: { ...h.march, pointsLeft: 3 } } } };
    const out = must(resolveStep1(s, clear, 'c1', dice(6, 1)));
    expect(formatHex(out.state.armies['hadewych']!.hex)).toBe('0304');
    expect(out.state.armies['hadewych']!.march).toMatchObject({ pointsLeft: 3, forcedMarchDay: 1 });
  });
});
