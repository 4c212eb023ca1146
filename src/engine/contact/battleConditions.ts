import type { Dice } from '../dice/index.js';
import type { Army } from '../forces/index.js';
import { directionTo } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { defenceShare } from '../movement/index.js';
import { companiesInBattle, movementProfile, tacticalProfile } from '../profiles/index.js';
import type { ArrangedForce, BattleConditions, CampaignState, ContactRecord, ForceCondition } from '../state/index.js';
import { awaitedRegiments } from '../water/index.js';
import { FOG_YARDS_PER_PIP, rollFogVisibility, weatherEffects } from '../weather/index.js';
import { hostile, liveArmies } from './queries.js';
import { forceTableNotes, tableNotes } from './tableReading.js';

/** The last hour of the day period: hours 13 to 24 are evening and night. @see 001 Contact Hour */
const LAST_DAY_HOUR = 12;

/** The conditions as the channel may read them: without any force's own state. */
export type PublicConditions = Omit<BattleConditions, 'forces'>;

/**
 * War machine companies a battle cannot use under a profile that moves machines assembled or
 * disassembled: disassembled, or with work on them under way. @see 004 Movement of War Machines
 */
function machinesUnavailable(state: CampaignState, army: Army): string[] {
  const profile = movementProfile(state.settings);
  return army.regiments.flatMap((r) => {
    const fielded = companiesInBattle(army, r.companies, profile);
    return r.companies.filter((c) => c.warMachine && c.figures > 0 && !fielded.includes(c)).map((c) => `${c.troopType} (${r.name})`);
  });
}

/** A force's own state for the table. */
function forceCondition(state: CampaignState, army: Army): ForceCondition {
  const unformed = army.formation === 'unformed';
  const op = army.march.operation;
  const awaited = (awaitedRegiments(state, army.id)?.batches ?? []).flatMap((b) => b.regiments);
  const nameOf = (id: string): string => army.regiments.find((r) => r.id === id)?.name ?? id;
  const machines = machinesUnavailable(state, army);
  const table = forceTableNotes(state, tacticalProfile(state.settings), army);
  return {
    armyId: army.id,
    fatigued: army.status.fatigued,
    unformed,
    asIfInRetreat: unformed && state.settings.unformedAsRetreat,
    ...(op?.kind === 'rafts' && op.phase !== 'cross' ? { raftsDefence: { phase: op.phase, share: defenceShare(army) } } : {}),
    ...(awaited.length > 0 ? { debarking: { present: army.regiments.filter((r) => !awaited.includes(r.id)).map((r) => r.name), awaited: awaited.map(nameOf) } } : {}),
    ...(machines.length > 0 ? { machinesUnavailable: machines } : {}),
    ...(table.length > 0 ? { table } : {}),
  };
}

/** How three or more forces stand: for each, the forces of the battle next to it and their side. */
function arrangementOf(state: CampaignState, map: MapModel, armies: readonly Army[]): ArrangedForce[] {
  return armies.map((a) => ({
    armyId: a.id,
    hex: map.format(a.hex),
    next: armies.flatMap((o) => {
      const direction = o.id === a.id ? undefined : directionTo(a.hex, o.hex);
      return direction ? [{ armyId: o.id, direction, enemy: hostile(state, a, o) }] : [];
    }),
  }));
}

/**
 * The conditions a battle is fought in, as the texts carry them to the table: the contact hour
 * (a night battle after the 12th), the weather (rain and the soft ground it leaves, high winds,
 * fog with its visibility rolled now: one die x 30 yards; the movement profile's missile
 * penalties), the arrangement of three or more forces fought as one battle, how the tactical
 * profile reads the table, and each force's own state: fatigued, unformed (as if in retreat), a
 * third of its force while building rafts, only the regiments already ashore, a forced march
 * today, war machines not assembled, and the tactical profile's readings of it.
 * @see 000 Whether Weather (Battlefield Weather; Fog; High Winds); 000 Units, Formed and Unformed;
 *   000 Major Rivers (rafts); 000 Waterborne Transport: Debarkation; 001 Contact Hour;
 *   001 Deployment: Three or More Forces on the Battlefield
 */
export function battleConditions(state: CampaignState, map: MapModel, record: ContactRecord, dice: Dice): BattleConditions {
  const armies = liveArmies(state, record.armyIds);
  const w = state.weather;
  const hour = record.data.contactHour;
  const yards = w.fog ? rollFogVisibility(dice) : undefined;
  const missile = weatherEffects(w, state.settings).battlefield;
  const highWinds = w.wind === 'highWinds' || w.wind === 'gale';
  const table = tableNotes(state, map, tacticalProfile(state.settings), armies, record.data.terrain ?? []);
  return {
    ...(hour !== undefined ? { hour } : {}),
    night: hour !== undefined ? hour > LAST_DAY_HOUR : record.openedAt.half >= 2,
    sky: w.sky,
    rainLevel: w.rainLevel,
    ...(yards !== undefined ? { fog: { die: yards / FOG_YARDS_PER_PIP, yards } } : {}),
    highWinds,
    ...(highWinds && missile.missileHits !== -1 ? { windHits: missile.missileHits } : {}),
    ...(missile.missileAttack !== undefined ? { missileAttack: missile.missileAttack } : {}),
    ...(table.length > 0 ? { table } : {}),
    ...(armies.length >= 3 ? { arrangement: arrangementOf(state, map, armies) } : {}),
    forces: Object.fromEntries(armies.map((a) => [a.id, forceCondition(state, a)])),
  };
}

/** The conditions without the forces' own states, for the channel. */
export function publicConditions(c: BattleConditions): PublicConditions {
  const { forces: _secret, ...rest } = c;
  return rest;
}
