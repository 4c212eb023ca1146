import { describe, expect, it } from 'vitest';
import { isAdjacent } from '../../src/engine/hex/neighbours.js';
import { planMove } from '../../src/engine/movement/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, at, campaign, hexes, hx, mapOf, MOVE, order, tick } from './movementFixtures.js';

// Grallune's cavalry (24 points) at 0301 wants to go south through Ingegerd's hex 0302 to 0303.
const map = mapOf(['ccccc', 'ccccc', 'ccccc', 'ccccc', 'ccccc']);

function allies(passage: boolean, extra: ReturnType<typeof army>[] = [], passerClass: 'cavalry' | 'infantry' = 'cavalry'): CampaignState {
  const s = campaign([army('grallune', '0301', { movementClass: passerClass }), army('ingegerd', '0302'), ...extra]);
  return { ...s, settings: { ...s.settings, passageOfLines: passage } };
}
const plan = (s: CampaignState, path: string) => planMove(s, map, NO_WEATHER_EFFECTS, 'grallune', { ...MOVE, path: hexes(path) });

describe('000 Advanced: Passage of Lines (a campaign setting, off by default)', () => {
  it('GIVEN the setting off THEN a march through another commander\'s hex is warned of and halts before it at the tick (order cancelled) when the ally stands', () => {
    const s = allies(false);
    const r = plan(s, '0302 0303');
    expect(r.ok && r.value.warnings.map((w) => w.code)).toEqual(['move.occupied']);
    expect(r.ok && r.value.warnings[0]?.message).toMatch(/0302 is held by Army of ingegerd: one commander per hex, and none passes through another's\. The order stands/);
    const after = tick(order(s, map, 'grallune', { path: hexes('0302 0303') }), map).state;
    expect(at(after, map, 'grallune')).toBe('0301');
    expect(after.orders['grallune']).toBeUndefined();
  });

  it('GIVEN the setting on THEN a march passes through the hex of a stationary ally, and the ally keeps it', () => {
    let s = allies(true);
    const r = plan(s, '0302 0303');
    expect(r.ok && r.value.warnings.map((w) => w.code)).toContain('move.passageOfLines');
    s = tick(order(s, map, 'grallune', { path: hexes('0302 0303') }), map).state;
    expect(at(s, map, 'grallune')).toBe('0303');
    expect(at(s, map, 'ingegerd')).toBe('0302');
    expect(s.armies['grallune']!.formation).toBe('formed');
  });

  it('GIVEN the setting on THEN a march may not stop on the ally\'s hex: warned, and at the tick it halts before it, the order cancelled', () => {
    const s = allies(true);
    const r = plan(s, '0302');
    expect(r.ok && r.value.warnings.map((w) => w.code)).toEqual(['move.occupied']);
    expect(r.ok && r.value.warnings[0]?.message).toMatch(/passage of lines lets a march pass through an ally standing still, never stop on it/);
    const to = planMove(s, map, NO_WEATHER_EFFECTS, 'grallune', { ...MOVE, to: hx('0302') });
    expect(to.ok && to.value.steps.map((x) => x.hex)).toEqual(['0302']);
    const out = tick(order(s, map, 'grallune', { path: hexes('0302') }), map);
    expect(at(out.state, map, 'grallune')).toBe('0301');
    expect(out.state.orders['grallune']).toBeUndefined();
    expect(out.events.find((e) => e.type === 'armyBlocked')?.data).toMatchObject({ armyId: 'grallune', blockedAt: '0302', reason: 'occupied' });
  });

  it('GIVEN the setting on and the ally marching off THEN a march that ends on its hex follows into it', () => {
    let s = order(allies(true), map, 'ingegerd', { path: hexes('0402') });
    s = order(s, map, 'grallune', { path: hexes('0302') });
    s = tick(s, map).state;
    expect([at(s, map, 'ingegerd'), at(s, map, 'grallune')]).toEqual(['0402', '0302']);
  });

  it('GIVEN a destination beyond the ally THEN the route goes through its hex', () => {
    const r = planMove(allies(true), map, NO_WEATHER_EFFECTS, 'grallune', { ...MOVE, to: hx('0303') });
    expect(r.ok && r.value.steps.map((x) => x.hex)).toEqual(['0302', '0303']);
  });

  it('GIVEN infantry whose morning would end in the ally\'s hex THEN it waits before it (order kept) and passes in the afternoon', () => {
    let s = order(allies(true, [], 'infantry'), map, 'grallune', { path: hexes('0302 0303') });
    const morning = tick(s, map);
    expect(at(morning.state, map, 'grallune')).toBe('0301');
    expect(morning.state.orders['grallune']).toBeDefined();
    expect(morning.events.find((e) => e.type === 'movementOutcome')?.text).toMatch(/Waiting at 0301: the allied force in 0302 can be passed through only in and out in the same half period/);
    s = tick(morning.state, map).state;
    expect(at(s, map, 'grallune')).toBe('0303');
  });

  it('GIVEN the ally marches off in the same half period THEN it is no passage: the march follows once the hex is free', () => {
    let s = allies(true);
    s = order(s, map, 'ingegerd', { path: hexes('0402') });
    s = order(s, map, 'grallune', { path: hexes('0302 0303') });
    s = tick(s, map).state;
    expect(at(s, map, 'ingegerd')).toBe('0402');
    expect(at(s, map, 'grallune')).toBe('0303');
  });

  it('GIVEN an enemy that the passing force comes into contact with in the ally\'s hex THEN both are unformed and the passer halts where it comes out', () => {
    const enemy = army('hadewych', '0402', { side: 'chaos' });
    expect([isAdjacent(hx('0302'), enemy.hex), isAdjacent(hx('0301'), enemy.hex)]).toEqual([true, false]);
    let s = order(allies(true, [enemy]), map, 'grallune', { path: hexes('0302 0303 0304') });
    const out = tick(s, map);
    s = out.state;
    expect(at(s, map, 'grallune')).toBe('0303');
    expect(s.armies['grallune']!.formation).toBe('unformed');
    expect(s.armies['ingegerd']!.formation).toBe('unformed');
    const said = out.events.find((e) => e.type === 'passageDisordered');
    expect(said?.audience).toEqual({ kind: 'public' });
    expect(said?.data).toEqual({ armyId: 'grallune', allyIds: ['ingegerd'], hex: '0303' });
    expect(said?.text).toBe('Enemy contact caught Grallune passing through the lines of Ingegerd: both are unformed; it halts at 0303.');
  });

  it('GIVEN an enemy met only where the march comes out THEN it is an ordinary contact: nobody is unformed', () => {
    const enemy = army('hadewych', '0403', { side: 'chaos' });
    expect([isAdjacent(hx('0302'), enemy.hex), isAdjacent(hx('0303'), enemy.hex)]).toEqual([false, true]);
    const s = tick(order(allies(true, [enemy]), map, 'grallune', { path: hexes('0302 0303 0304') }), map).state;
    expect(at(s, map, 'grallune')).toBe('0303');
    expect([s.armies['grallune']!.formation, s.armies['ingegerd']!.formation]).toEqual(['formed', 'formed']);
  });
});
