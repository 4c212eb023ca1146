import type { Army } from '../forces/index.js';
import { type Hex, directionTo, hexEquals } from '../hex/index.js';
import { arrivalBank, bankOfEdge, crossingNeeded, type Bank, type MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import type { Violation } from '../result.js';
import { crossingCost } from './crossing.js';
import { enterCost, fliesOver } from './terrainCost.js';
import type { MoveOptions, WalkStep } from './types.js';
import type { WeatherEffects } from '../state/index.js';

export interface WalkInput {
  readonly map: MapModel;
  readonly army: Army;
  readonly from: Hex;
  readonly fromBank: Bank | undefined;
  readonly path: readonly Hex[];
  readonly crossAtEnd: boolean;
  readonly opts: MoveOptions;
  readonly weather: WeatherEffects;
  /** The campaign's movement profile (terrain costs, flying). */
  readonly profile: MovementProfile;
}

export interface Walk {
  /** Legal steps, in order, up to the first illegal one. */
  readonly steps: readonly (WalkStep & { readonly closed?: 'ford' | 'ferry' })[];
  /** Why the walk stopped short, and at which path index. */
  readonly stop?: { readonly index: number; readonly violation: Violation };
}

/** The other bank. */
export function otherBank(b: Bank | undefined): Bank {
  return b === 'left' ? 'right' : 'left';
}

/**
 * Walks a path of hexes from the army's position, turning it into steps: a river crossing where
 * leaving a river hex reaches an edge on the other bank (RULINGS 1), then the entry into the next
 * hex; with `crossAtEnd`, a final crossing in the last hex. Stops at the first illegal step.
 * @see RULINGS 1 (banks); 000 Terrain Effects
 */
export function walkPath(input: WalkInput): Walk {
  const steps: WalkedStep[] = [];
  const walk = walkSteps(input);
  for (let next = walk.next(); ; next = walk.next()) {
    if (next.done) return next.value ? { steps, stop: next.value } : { steps };
    steps.push(next.value);
  }
}

type WalkedStep = Walk['steps'][number];

/**
 * `walkPath` one step at a time, for a caller that may stop early (a half period's plan stops where
 * its points run out, usually a few hexes into a long order): the legal steps, then why the walk
 * stopped short, if it did, as the generator's return value.
 */
export function* walkSteps(input: WalkInput): Generator<WalkedStep, Walk['stop'] | undefined> {
  const { map, army, opts, weather } = input;
  const { profile } = input;
  const flying = fliesOver(army, profile.flyingIgnoresTerrain);
  const nightDouble = opts.night && army.sight === 'light';
  let cur = input.from;
  let bank = input.fromBank;
  for (const [i, to] of input.path.entries()) {
    if (directionTo(cur, to) === undefined) {
      const message = !hexEquals(to, cur)
        ? `${map.format(to)} is not next to ${map.format(cur)}: give every hex of the path in order.`
        : i === 0
          ? `${map.format(to)} is where the army stands: begin the path with the first hex to enter, then every hex after it in order.`
          : `${map.format(to)} is named twice in a row: give every hex of the path once, in order.`;
      return { index: i, violation: { code: 'move.notAdjacent', message, details: { hex: map.format(to) } } };
    }
    if (!flying && crossingNeeded(map, cur, bank, to)) {
      const to2 = otherBank(bank);
      const c = crossingCost(map, army, cur, bank, to2, { weather, nightDouble, profile });
      if (!c.ok) return { index: i, violation: c.violation };
      yield { kind: 'cross', hex: cur, bank: to2, crossing: c.value, points: c.value.points, needsUnformed: false, ...(c.value.closed ? { closed: c.value.closed } : {}) };
      bank = to2;
    }
    const e = enterCost(map, army, cur, to, opts, profile);
    if (!e.ok) return { index: i, violation: e.violation };
    const arrive = arrivalBank(map, cur, bank, to);
    yield { kind: 'enter', hex: to, ...(arrive ? { bank: arrive } : {}), enter: e.value, points: e.value.cost, needsUnformed: e.value.needsUnformed };
    cur = to;
    bank = arrive;
  }
  if (input.crossAtEnd) {
    const river = map.riverAt(cur);
    const split = river && river.entry !== undefined && river.exit !== undefined;
    if (!split || flying) {
      return { index: input.path.length, violation: { code: 'move.noRiverAtEnd', message: `There is no river to cross in ${map.format(cur)}; leave out crossAtEnd.`, details: { hex: map.format(cur) } } };
    }
    const startBank = bank ?? defaultBank(map, cur);
    const to2 = otherBank(startBank);
    const c = crossingCost(map, army, cur, startBank, to2, { weather, nightDouble, profile });
    if (!c.ok) return { index: input.path.length, violation: c.violation };
    yield { kind: 'cross', hex: cur, bank: to2, crossing: c.value, points: c.value.points, needsUnformed: false, ...(c.value.closed ? { closed: c.value.closed } : {}) };
  }
  return undefined;
}

/** A bank for an army whose bank was never recorded: the left bank. */
function defaultBank(map: MapModel, h: Hex): Bank {
  const river = map.riverAt(h);
  if (river?.entry) {
    const b = bankOfEdge(river, river.entry);
    if (b === 'left' || b === 'right') return b;
  }
  return 'left';
}
