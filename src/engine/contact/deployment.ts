import type { Dice } from '../dice/index.js';
import type { Terrain } from '../map/index.js';
import { BASELINE_COUNT, DEPLOYMENT_MODIFIERS, FORCED_MARCH_EARLY_LABEL, DEPLOYMENT_SCHEDULE, type DeploymentModifierCode } from './tables.js';
import type { AppliedModifier, BaselineLayout, DeployUnit, DeploymentBriefing, DeploymentEntry, DeploymentUnits, MarchFormation } from '../state/index.js';

/** What deployment needs to know about one commander in the battle. */
export interface DeploymentInput {
  readonly armyId: string;
  /** Unmodified and modified contact dice of this contact. */
  readonly contactRaw: number;
  readonly contactModified: number;
  /** Used the maneuver action this half period. */
  readonly maneuver: boolean;
  /** Terrain of every opponent's hex in this battle. */
  readonly opponentTerrains: readonly (Terrain | undefined)[];
  readonly formation: MarchFormation;
  /** Companies in the engaging (assault) regiment. */
  readonly companies: number;
  /** A forced march declared before the day's march (the movement profile's bonus; absent: none). @see 004 Forced Marching */
  readonly forcedMarchBonus?: number;
}

/**
 * Deployment dice modifiers for one commander, among all commanders in the battle.
 * Only a single highest unmodified contact die earns the +1 (a tie for highest earns nothing).
 * @see 001 Deployment: Deployment Dice Modifiers
 */
function deploymentModifiers(self: DeploymentInput, all: readonly DeploymentInput[]): AppliedModifier[] {
  const mods: AppliedModifier[] = [];
  const add = (code: DeploymentModifierCode): void => {
    mods.push({ code, label: DEPLOYMENT_MODIFIERS[code].label, value: DEPLOYMENT_MODIFIERS[code].value });
  };
  const others = all.filter((x) => x.armyId !== self.armyId);
  if (others.length > 0 && others.every((o) => o.contactRaw < self.contactRaw)) add('highestContact');
  if (self.contactModified <= 1) add('contactOneOrLess');
  if (self.maneuver) add('maneuver');
  const t = self.opponentTerrains;
  if (t.length > 0 && t.every((x) => x === 'clear')) add('opponentsClear');
  if (t.length > 0 && t.every((x) => x === 'mountain')) add('opponentsMountain');
  if (self.forcedMarchBonus) mods.push({ code: 'forcedMarchEarly', label: FORCED_MARCH_EARLY_LABEL, value: self.forcedMarchBonus });
  return mods;
}

function clampDie(n: number): number {
  return Math.min(6, Math.max(1, n));
}

function unitsPerRegiment(unit: DeployUnit, companies: number): number {
  if (unit === 'company') return Math.max(1, companies);
  return unit === 'battalion' ? 2 : 1;
}

/**
 * Initial deployment: base deployment plus turn deployment times the multiplier (own deployment
 * dice minus the lowest on the field), never more than the whole engaging regiment.
 * @see 001 Deployment: Initial Deployment
 */
export function initialDeployment(formation: MarchFormation, multiplier: number, companies: number): { initial: DeploymentUnits; subsequentRounds: number } {
  const row = DEPLOYMENT_SCHEDULE[formation];
  const whole = unitsPerRegiment(row.base.unit, companies);
  const raw = row.base.count + row.turn.count * multiplier;
  const count = Math.min(raw, whole);
  const subsequentRounds = Math.ceil((whole - count) / row.turn.count);
  return { initial: { count, unit: row.base.unit, wholeRegiment: count >= whole }, subsequentRounds };
}

/**
 * The deployment phase: every commander rolls a deployment die, modified and clamped to 1-6.
 * The highest score has the initiative (tie: higher unmodified die; still tied: roll off). The
 * single highest scorer counts baselines from the rear; the others, and all tied top scorers,
 * count from the forward baseline. Initial deployment comes in two rounds (highest first, then
 * lowest first); later rounds go lowest to highest. Ties in those orders go to the initiative.
 * @see 001 Deployment: Deployment Dice; Deployment Initiative; Deployment Baseline; Initial Deployment; Subsequent Deployment
 */
export function deploy(inputs: readonly DeploymentInput[], layout: BaselineLayout, dice: Dice, dieOverride?: Readonly<Record<string, number>>): DeploymentBriefing {
  // 1. Dice and modifiers.
  const rolled = inputs.map((inp) => {
    const die = dieOverride?.[inp.armyId] ?? dice.d6(`deployment dice: ${inp.armyId}`);
    const modifiers = deploymentModifiers(inp, inputs);
    const score = clampDie(die + modifiers.reduce((n, m) => n + m.value, 0));
    return { inp, die, modifiers, score };
  });
  // 2. Initiative.
  const top = Math.max(...rolled.map((r) => r.score));
  let leaders = rolled.filter((r) => r.score === top);
  let initiativeBy: DeploymentBriefing['initiativeBy'] = 'score';
  if (leaders.length > 1) {
    const topDie = Math.max(...leaders.map((r) => r.die));
    leaders = leaders.filter((r) => r.die === topDie);
    initiativeBy = 'unmodified';
  }
  let initiative = leaders[0]?.inp.armyId ?? '';
  if (leaders.length > 1) {
    initiativeBy = 'rolloff';
    // "Still a tie, dice for it": those tied for the best roll roll again.
    let pool = leaders.map((l) => l.inp.armyId);
    while (pool.length > 1) {
      const rolls = pool.map((id) => ({ id, r: dice.d6(`deployment initiative roll-off: ${id}`) }));
      const best = Math.max(...rolls.map((x) => x.r));
      pool = rolls.filter((x) => x.r === best).map((x) => x.id);
    }
    initiative = pool[0] ?? initiative;
  }
  // 3. Baselines and schedules.
  const topCount = rolled.filter((r) => r.score === top).length;
  const lowest = Math.min(...rolled.map((r) => r.score));
  const entries: DeploymentEntry[] = rolled.map((r) => {
    const countFrom = r.score === top && topCount === 1 ? 'rear' : 'forward';
    const baselineFromForward = countFrom === 'rear' ? BASELINE_COUNT + 1 - r.score : r.score;
    const row = DEPLOYMENT_SCHEDULE[r.inp.formation];
    const multiplier = r.score - lowest;
    const { initial, subsequentRounds } = initialDeployment(r.inp.formation, multiplier, r.inp.companies);
    return {
      armyId: r.inp.armyId,
      die: r.die,
      modifiers: r.modifiers,
      score: r.score,
      countFrom,
      baseline: r.score,
      baselineFromForward,
      distanceFromEdge: layout.distances[baselineFromForward - 1] ?? 0,
      formation: r.inp.formation,
      base: row.base,
      turn: row.turn,
      multiplier,
      initial,
      subsequentRounds,
    };
  });
  // 4. Orders: by score, the initiative counting as higher on a tie, then by unmodified die.
  const rank = (e: DeploymentEntry): number => e.score * 100 + (e.armyId === initiative ? 50 : 0) + e.die;
  const highToLow = [...entries].sort((a, b) => rank(b) - rank(a)).map((e) => e.armyId);
  const lowToHigh = [...highToLow].reverse();
  return { layout, entries, initiative, initiativeBy, initialRounds: [highToLow, lowToHigh], subsequentOrder: lowToHigh };
}
