import { takeFigures, assaultRegiment, isHostile, regimentCount, regimentFigures, regimentStrength, troopFigures, type Army, type Regiment } from '../forces/index.js';
import type { Dice } from '../dice/index.js';
import { PUBLIC, REFEREE, toArmy } from '../events/index.js';
import { hexAdd, hexEquals, DIRECTION_VECTORS, type Hex, hexDistance, directionTo, neighbours } from '../hex/index.js';
import type { MapModel, Terrain } from '../map/index.js';
import { markDisengaged, type PricedMove } from '../movement/index.js';
import { type AppliedModifier, type CampaignState, type DisengagementOutcome, type DisengageOperation, getArmy, type LossCell, type OpponentResult } from '../state/index.js';
import type { ContactFact } from './contactEvents.js';
import { contactMoveCost, contactPointsLeft, makeContactMove } from './moveCost.js';
import { DISENGAGE_MODIFIERS, LOSSES_TABLE, type LossColumn } from './tables.js';

/** A force's state for the disengagement modifiers. */
export type DisengageFormation = 'formed' | 'retreat' | 'rout' | 'unformed';

export interface DisengageParty {
  readonly armyId: string;
  readonly formation: DisengageFormation;
  /** An unformed force begins an engagement as if in retreat (the campaign setting, on by default). */
  readonly unformedAsRetreat: boolean;
  readonly maneuver: boolean;
  /** Opponent only: ordered an aggressive pursuit (checked by the caller). */
  readonly aggressivePursuit?: boolean;
  readonly cavalry: 'none' | 'cavalry' | 'fresh';
  readonly fatigued: boolean;
  /** Larger army by one regiment or more (the disengaging force: than every opponent). */
  readonly larger: boolean;
  readonly supported: boolean;
  /** Strength of the engaging regiment in percent. */
  readonly strength: number;
  readonly terrain: Terrain | undefined;
}

/**
 * Disengagement modifiers: the best one of each category. An unformed force counts as in retreat
 * (setting `unformedAsRetreat`, on by default; off, it has no formation modifier). The rearguard
 * is the disengaging force's own (not in rout; unformed or in retreat only above half strength).
 * Terrain is favourable to the disengaging force in mountains and unfavourable in clear; the
 * other way round for its opponent.
 * @see 000 Units, Formed and Unformed ("as if in retreat")
 * @see 001 Avoid, Evade, Delay, and Withdraw: Disengagement Modifiers
 */
function disengageModifiers(p: DisengageParty, side: 'disengaging' | 'opponent'): AppliedModifier[] {
  const M = DISENGAGE_MODIFIERS;
  const out: AppliedModifier[] = [];
  const best = (category: string, options: readonly [string, number, boolean][]): void => {
    const valid = options.filter(([, , ok]) => ok);
    if (valid.length === 0) return;
    const [code, value] = valid.reduce((a, b) => (b[1] > a[1] ? b : a));
    out.push({ code, label: `${category}: ${code}`, value });
  };
  if (p.formation !== 'unformed') best('formation', [[p.formation, M.formation[p.formation], true]]);
  else if (p.unformedAsRetreat) out.push({ code: 'unformed', label: 'formation: unformed, as if in retreat', value: M.formation.retreat });
  const rearguardOk = side === 'disengaging' && p.formation !== 'rout' && (p.formation === 'formed' || p.strength > 50);
  best('tactics', [
    ['maneuver', M.tactics.maneuver, p.maneuver],
    ['aggressivePursuit', M.tactics.aggressivePursuit, side === 'opponent' && p.aggressivePursuit === true],
    ['rearguard', M.tactics.rearguard, rearguardOk],
  ]);
  best('cavalry', [
    ['cavalry', M.cavalry.cavalry, p.cavalry !== 'none'],
    ['freshCavalry', M.cavalry.freshCavalry, p.cavalry === 'fresh'],
  ]);
  best('condition', [['fatigued', M.condition.fatigued, p.fatigued]]);
  best('size', [
    ['larger', M.size.larger, p.larger],
    ['supported', M.size.supported, p.supported],
  ]);
  best('strength', [['halfOrLess', M.strength.halfOrLess, p.strength <= 50]]);
  const favourable = side === 'disengaging' ? p.terrain === 'mountain' : p.terrain === 'clear';
  const unfavourable = side === 'disengaging' ? p.terrain === 'clear' : p.terrain === 'mountain';
  best('terrain', [
    ['favorable', M.terrain.favorable, favourable],
    ['unfavorable', M.terrain.unfavorable, unfavourable],
  ]);
  return out;
}

function lossColumn(op: DisengageOperation): LossColumn {
  return op === 'withdraw' ? 'delay' : op;
}

/** Index of the losses-table row for a difference. */
function lossRowIndex(difference: number): number {
  return LOSSES_TABLE.findIndex((row) => difference >= row.minDifference);
}

/** The losses-table cell for an operation at a row. */
function lossCellAt(op: DisengageOperation, rowIndex: number): LossCell {
  const row = LOSSES_TABLE[Math.min(rowIndex, LOSSES_TABLE.length - 1)] ?? LOSSES_TABLE[LOSSES_TABLE.length - 1];
  if (!row) throw new Error('empty losses table');
  return row[lossColumn(op)];
}

/** Losses for a difference (own modified die minus the opponent's). @see 001 Disengagement Losses Table */
export function disengagementLosses(op: DisengageOperation, difference: number): LossCell {
  return lossCellAt(op, lossRowIndex(difference));
}

/** What the contact knows about roles and actions around a disengagement. */
export interface DisengageContext {
  /** supporter army id -> supported army id */
  readonly supports: Readonly<Record<string, string>>;
  readonly reinforce: Readonly<Record<string, boolean>>;
  readonly maneuvering: ReadonlySet<string>;
  /** Armies that fought in melee today (their cavalry is not fresh). */
  readonly meleeToday: ReadonlySet<string>;
}

function isCavalry(r: Regiment | undefined): boolean {
  if (!r) return false;
  const cav = r.companies.filter((c) => c.basic === 'cavalry').reduce((n, c) => n + c.figures, 0);
  return cav > 0 && cav * 2 >= regimentFigures(r);
}

/** Builds a party from the campaign state. */
function partyOf(state: CampaignState, map: MapModel, army: Army, others: readonly Army[], ctx: DisengageContext, formation?: DisengageFormation): DisengageParty {
  const r = assaultRegiment(army);
  const cav = isCavalry(r) ? (army.status.fatigued || ctx.meleeToday.has(army.id) ? 'cavalry' : 'fresh') : 'none';
  const n = regimentCount(army);
  return {
    armyId: army.id,
    formation: formation ?? (army.formation === 'formed' ? 'formed' : 'unformed'),
    unformedAsRetreat: state.settings.unformedAsRetreat,
    maneuver: ctx.maneuvering.has(army.id),
    cavalry: cav,
    fatigued: army.status.fatigued,
    larger: others.length > 0 && others.every((o) => n >= regimentCount(o) + 1),
    supported: Object.entries(ctx.supports).some(([s, target]) => target === army.id && state.armies[s] !== undefined && !state.armies[s]?.status.destroyed),
    strength: r ? regimentStrength(r) : 0,
    terrain: map.terrainAt(army.hex),
  };
}

/**
 * An opponent pursues an unformed force aggressively (+2 instead of the maneuver's +1) when it
 * uses the maneuver action, is formed and not fatigued, and the setting counts unformed forces as
 * in retreat. A withdrawal from a battle says its own condition, and its pursuers, instead.
 * @see 001 Disengagement Modifiers (aggressive pursuit of an unformed opponent)
 */
function pursuesUnformed(state: CampaignState, self: Army, o: Army, input: DisengageInput): boolean {
  if (input.formation !== undefined || self.formation !== 'unformed' || !state.settings.unformedAsRetreat) return false;
  return input.ctx.maneuvering.has(o.id) && o.formation === 'formed' && !o.status.fatigued;
}

/** Removes `lost` figures from a regiment's companies, in proportion (largest remainders first). */
function removeFigures(r: Regiment, lost: number): Regiment {
  return takeFigures(r, lost).regiment;
}

/** Applies figure losses to named regiments of an army; marks the army destroyed when no troop figures remain. */
export function applyRegimentLosses(army: Army, losses: Readonly<Record<string, number>>): Army {
  const regiments = army.regiments.map((r) => (losses[r.id] ? removeFigures(r, losses[r.id] ?? 0) : r));
  const next = { ...army, regiments };
  const destroyed = troopFigures(next) === 0 && army.individuals.length === 0;
  return destroyed ? { ...next, status: { ...next.status, destroyed: true, inContact: false, inBattle: false } } : next;
}

function occupant(state: CampaignState, h: Hex, except: string): Army | undefined {
  return Object.values(state.armies).find((a) => a.id !== except && !a.status.destroyed && hexEquals(a.hex, h));
}

/** The hex on the far side of `self` from `from` (the hex opposite the contact). */
function oppositeHex(self: Hex, from: Hex): Hex {
  const d = directionTo(from, self);
  if (d) return hexAdd(self, DIRECTION_VECTORS[d]);
  // Not adjacent: the neighbour farthest from the opponent, first clockwise from north.
  return neighbours(self).reduce((best, n) => (hexDistance(n, from) > hexDistance(best, from) ? n : best));
}

/** A disengagement asked of the rules: who disengages from whom, how, and in what state. */
export interface DisengageInput {
  readonly armyId: string;
  readonly opponentIds: readonly string[];
  readonly operation: DisengageOperation;
  readonly formation?: DisengageFormation;
  readonly pursuers?: ReadonlySet<string>;
  readonly ctx: DisengageContext;
}

/**
 * One disengagement operation:
 * 1. the disengaging commander rolls one die, each opponent rolls one; the disengaging result is
 *    compared with each opponent's separately;
 * 2. a D result pushes the force to the hex opposite that opponent (displace);
 * 3. all losses are applied together from the assault regiment (percent of current figures,
 *    rounded up to whole figures);
 * 4. numbers go only to the commanders concerned and the referee.
 * @see 001 Avoid, Evade, Delay, and Withdraw: Summary; Multiple Opponents; Disengagement Losses; D Displaced
 */
export function resolveDisengagement(state: CampaignState, map: MapModel, input: DisengageInput, dice: Dice): { state: CampaignState; outcome: DisengagementOutcome; facts: ContactFact[] } {
  const self = getArmy(state, input.armyId);
  const opponents = input.opponentIds.map((id) => state.armies[id]).filter((a): a is Army => a !== undefined);
  // 1. Dice and modifiers.
  const die = dice.d6(`${input.operation} dice: ${self.id}`);
  const modifiers = disengageModifiers(partyOf(state, map, self, opponents, input.ctx, input.formation), 'disengaging');
  const modified = die + modifiers.reduce((n, m) => n + m.value, 0);
  const rolled: OpponentResult[] = opponents.map((o) => {
    const party = { ...partyOf(state, map, o, [self], input.ctx), aggressivePursuit: input.pursuers?.has(o.id) === true || pursuesUnformed(state, self, o, input) };
    const od = dice.d6(`${input.operation} dice: ${o.id} against ${self.id}`);
    const om = disengageModifiers(party, 'opponent');
    const oMod = od + om.reduce((n, m) => n + m.value, 0);
    const difference = modified - oMod;
    const row = lossRowIndex(difference);
    return { opponentId: o.id, die: od, modifiers: om, modified: oMod, difference, row, cell: lossCellAt(input.operation, row) };
  });
  // 2. Displacement, reinforcement, blocked hexes.
  const moved = displace(state, map, self, input, rolled);
  // 3. Losses, all together, from the assault regiment.
  const against = moved.against;
  const percent = Math.min(100, against.reduce((n, a) => n + a.cell.percent, 0));
  const destroyed = against.some((a) => a.cell.destroyed) || percent >= 100;
  const armies = { ...moved.armies };
  // A disengagement is no rest, even without a move (a displacement already counts as one).
  if (!moved.displacedTo) armies[self.id] = markDisengaged(getArmy({ armies }, self.id), state.clock);
  const current = getArmy({ armies }, self.id);
  const regiment = assaultRegiment(current);
  const have = regiment ? regimentFigures(regiment) : 0;
  const figuresLost = destroyed ? have : Math.ceil((have * percent) / 100);
  if (regiment && figuresLost > 0) armies[self.id] = applyRegimentLosses(current, { [regiment.id]: figuresLost });
  const outcome: DisengagementOutcome = {
    operation: input.operation,
    armyId: self.id,
    die,
    modifiers,
    modified,
    against,
    percent,
    figuresLost,
    ...(regiment ? { regimentId: regiment.id } : {}),
    destroyed,
    ...(moved.displacedTo ? { displacedTo: moved.displacedTo } : {}),
    ...(moved.reinforcedBy ? { reinforcedBy: moved.reinforcedBy } : {}),
    ...(moved.supporterDisplaced ? { supporterDisplaced: moved.supporterDisplaced } : {}),
    linesDown: moved.linesDown,
  };
  // 4. Facts: numbers only to the commander and the referee.
  const facts = [...disengagementFacts(map, input.operation, outcome, regiment?.name, armies[self.id]?.status.destroyed === true), ...(moved.moveFacts ?? [])];
  return { state: { ...state, armies }, outcome, facts };
}

/** What a displacement did: where the force went, who prevented it, the lines read down when it was blocked. */
interface Displacement {
  readonly armies: Record<string, Army>;
  readonly against: OpponentResult[];
  readonly displacedTo?: Hex;
  readonly reinforcedBy?: string;
  readonly supporterDisplaced?: { readonly armyId: string; readonly to: Hex };
  readonly linesDown: number;
  /** What the moves made did to the forces (unformed, stragglers lost), for their commanders. */
  readonly moveFacts?: readonly ContactFact[];
}

/**
 * Step 2: a D result pushes the force to the hex opposite the opponent that displaces it (the
 * worst difference first). A supporter that reinforces prevents it; a supporter in the way that
 * does not reinforce is pushed one hex further when it can. If the force cannot enter (map edge,
 * water, an enemy or a non-supporting friend, not enough points) the next line down is read.
 */
function displace(state: CampaignState, map: MapModel, self: Army, input: DisengageInput, rolled: OpponentResult[]): Displacement {
  const armies: Record<string, Army> = { ...state.armies };
  const supporters = Object.entries(input.ctx.supports).filter(([, t]) => t === self.id).map(([s]) => s);
  let against = rolled;
  let linesDown = 0;
  for (;;) {
    const displacing = against.filter((a) => a.cell.displaced).sort((a, b) => a.difference - b.difference)[0];
    if (!displacing) return { armies, against, linesDown };
    const reinforcer = supporters.find((s) => input.ctx.reinforce[s] === true && armies[s] && !armies[s]?.status.destroyed);
    if (reinforcer) return { armies, against: against.map((a) => ({ ...a, cell: { ...a.cell, displaced: false } })), reinforcedBy: reinforcer, linesDown };
    const target = oppositeHex(self.hex, state.armies[displacing.opponentId]?.hex ?? self.hex);
    const push = pushInto(state, map, self, supporters, armies, target);
    if (push) {
      let supporterDisplaced: Displacement['supporterDisplaced'];
      const moveFacts: ContactFact[] = [];
      if (push.supporter) {
        const pushed = makeContactMove(state, map, getArmy({ armies }, push.supporter.armyId), push.supporter.move);
        armies[pushed.army.id] = pushed.army;
        moveFacts.push(...pushed.facts);
        supporterDisplaced = { armyId: pushed.army.id, to: push.supporter.move.to };
      }
      const moved = makeContactMove(state, map, getArmy({ armies }, self.id), push.move);
      armies[self.id] = moved.army;
      moveFacts.push(...moved.facts);
      return { armies, against, displacedTo: target, linesDown, moveFacts, ...(supporterDisplaced ? { supporterDisplaced } : {}) };
    }
    // Blocked: read the next line down for every displacing result.
    linesDown++;
    against = against.map((a) => (a.cell.displaced ? { ...a, row: a.row + 1, cell: lossCellAt(input.operation, a.row + 1) } : a));
  }
}

/** A move the movement rules allow now and the army's points left cover, or undefined. */
function affordable(state: CampaignState, map: MapModel, army: Army, to: Hex): PricedMove | undefined {
  const priced = contactMoveCost(state, map, army, [to]);
  return priced.ok && priced.value.points <= contactPointsLeft(state, army) ? priced.value : undefined;
}

/**
 * Whether the force can be pushed into the target hex, and the move it (and a supporter it pushes
 * on) makes; undefined when blocked: the movement rules refuse the hex now (water, the map's
 * edge, night, rain, a river that cannot be crossed at once), the points do not cover it, or the
 * hex is held by an enemy or a friend who does not support it.
 */
function pushInto(state: CampaignState, map: MapModel, self: Army, supporters: readonly string[], armies: Readonly<Record<string, Army>>, target: Hex): { move: PricedMove; supporter?: { armyId: string; move: PricedMove } } | undefined {
  const move = affordable(state, map, self, target);
  if (!move) return undefined;
  const there = occupant({ ...state, armies }, target, self.id);
  if (!there) return { move };
  if (!supporters.includes(there.id) || isHostile(state.sides, there.side, self.side)) return undefined;
  const beyond = hexAdd(target, { q: target.q - self.hex.q, r: target.r - self.hex.r });
  const sMove = affordable(state, map, there, beyond);
  const free = occupant({ ...state, armies }, beyond, there.id) === undefined;
  if (!sMove || !free) return undefined;
  return { move, supporter: { armyId: there.id, move: sMove } };
}

/** Step 4: the roll to its commander and the referee, each opponent's own die to them, and the public outcome. */
function disengagementFacts(map: MapModel, operation: DisengageOperation, outcome: DisengagementOutcome, regimentName: string | undefined, destroyed: boolean): ContactFact[] {
  const self = outcome.armyId;
  const to = outcome.displacedTo ? map.format(outcome.displacedTo) : undefined;
  const secret = { outcome, ...(regimentName ? { regimentName } : {}), ...(to ? { displacedTo: to } : {}) };
  const facts: ContactFact[] = [
    { type: 'disengagementRolled', audience: toArmy(self), data: secret },
    { type: 'disengagementRolled', audience: REFEREE, data: secret },
    ...outcome.against.map((a): ContactFact => ({ type: 'disengagementOpposed', audience: toArmy(a.opponentId), data: { armyId: self, operation, die: a.die, modifiers: a.modifiers, modified: a.modified } })),
    { type: 'forceDisengaged', audience: PUBLIC, data: { armyId: self, operation, opposed: true, ...(to ? { to } : {}) } },
  ];
  const pushed = outcome.supporterDisplaced;
  if (pushed) facts.push({ type: 'forceDisplaced', audience: PUBLIC, data: { armyId: pushed.armyId, to: map.format(pushed.to) } });
  if (destroyed) facts.push({ type: 'armyDestroyed', audience: PUBLIC, data: { armyId: self } });
  return facts;
}
