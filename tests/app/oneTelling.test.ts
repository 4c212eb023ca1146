/**
 * A march told once (src/app/deliveries/cards.ts oneTelling): under fog of war the public line of a
 * march reaches its commander beside their own account of it; the account stays and gains what
 * only the public line told.
 */
import { describe, expect, it } from 'vitest';
import { oneTelling } from '../../src/app/deliveries/cards.js';
import { PUBLIC, toArmy, type EngineEvent } from '../../src/engine/events/index.js';

const moved = (armyId: string, path: string[], crossings: { method: string; hex: string }[] = []): EngineEvent =>
  ({ type: 'armyMoved', audience: toArmy(armyId), text: `${armyId} marched.`, data: { armyId, from: '0101', to: path[path.length - 1] ?? '0101', path, crossings } });
const account = (armyId: string): EngineEvent =>
  ({ type: 'movementOutcome', audience: toArmy(armyId), text: `Morning: ${armyId} marched 0101 -> 0103; 0 of 24 points left today.`, data: { armyId } });

describe('oneTelling', () => {
  it('GIVEN a march through two hexes across a ford, with its account THEN the public line goes and the account says the hexes passed and the river crossed', () => {
    const out = oneTelling([moved('red', ['0102', '0103'], [{ method: 'ford', hex: '0102' }]), account('red')]);
    expect(out.map((e) => e.text)).toEqual(['Morning: red marched 0101 -> 0103; 0 of 24 points left today. By 0102; across the river by ford at 0102.']);
  });

  it('GIVEN a one-hex march with its account THEN only the account, unchanged', () => {
    expect(oneTelling([moved('red', ['0102']), account('red')]).map((e) => e.text)).toEqual([account('red').text]);
  });

  it('GIVEN a march line with no account beside it (another army, or public) THEN it stays', () => {
    const other = moved('blue', ['0102']);
    const pub = { ...moved('red', ['0102']), audience: PUBLIC };
    expect(oneTelling([other, account('red')]).map((e) => e.type)).toEqual(['armyMoved', 'movementOutcome']);
    expect(oneTelling([pub])).toEqual([pub]);
  });
});
