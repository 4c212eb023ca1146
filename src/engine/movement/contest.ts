import type { Dice } from '../dice/index.js';
import { BrokenData } from '../result.js';

/** What a force brings to a contested hex. @see RULINGS 3 (contested hex) */
export interface Contender {
  readonly armyId: string;
  /** Troop figures (individuals do not count). */
  readonly figures: number;
  /** Move points left after entering the contested hex. */
  readonly remainingAfter: number;
  /** Daily move points. */
  readonly dailyPoints: number;
}

export type TieBreak = 'fewerTroops' | 'morePointsLeft' | 'moreDailyPoints' | 'dice';

export interface ContestResult {
  /** Army ids, winner first. */
  readonly ranking: readonly string[];
  /** What decided between the winner and the runner-up. */
  readonly decidedBy: TieBreak;
  /** Dice rolled, by army id (only when dice decided). */
  readonly rolls: Readonly<Record<string, number[]>>;
}

/**
 * Ranks forces entering the same hex in the same half period: fewer troop figures first, then
 * more move points left after entering, then more daily move points, then a die each (ties roll
 * again among themselves).
 * @see 000 Strategic Movement: Simultaneous Moves and Contested Hexes; RULINGS 3
 */
export function rankContenders(contenders: readonly Contender[], dice: Dice, hexName: string): ContestResult {
  const rolls: Record<string, number[]> = {};
  const keyCmp = (a: Contender, b: Contender): number =>
    a.figures - b.figures || b.remainingAfter - a.remainingAfter || b.dailyPoints - a.dailyPoints;
  const sorted = [...contenders].sort((a, b) => keyCmp(a, b) || (a.armyId < b.armyId ? -1 : 1));
  // Break the remaining ties with dice, group by group.
  const ranking: string[] = [];
  let group: Contender[] = [];
  const close = (): void => {
    ranking.push(...(group.length > 1 ? byDice(group.map((c) => c.armyId), dice, hexName, rolls) : group.map((c) => c.armyId)));
  };
  for (const c of sorted) {
    const head = group[0];
    if (head && keyCmp(head, c) !== 0) {
      close();
      group = [];
    }
    group.push(c);
  }
  close();
  const a = contenders.find((c) => c.armyId === ranking[0]);
  const b = contenders.find((c) => c.armyId === ranking[1]);
  if (!a || !b) throw new BrokenData(`a contest for ${hexName} needs two contenders`);
  const decidedBy: TieBreak = a.figures !== b.figures ? 'fewerTroops' : a.remainingAfter !== b.remainingAfter ? 'morePointsLeft' : a.dailyPoints !== b.dailyPoints ? 'moreDailyPoints' : 'dice';
  return { ranking, decidedBy, rolls };
}

function byDice(ids: readonly string[], dice: Dice, hexName: string, rolls: Record<string, number[]>): string[] {
  if (ids.length <= 1) return [...ids];
  const rolled = ids.map((id) => {
    const v = dice.d6(`contested hex ${hexName}: ${id}`);
    rolls[id] = [...(rolls[id] ?? []), v];
    return { id, v };
  });
  const values = [...new Set(rolled.map((r) => r.v))].sort((x, y) => y - x);
  return values.flatMap((v) => byDice(rolled.filter((r) => r.v === v).map((r) => r.id), dice, hexName, rolls));
}
