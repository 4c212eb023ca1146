import { halfPeriodEndHour, isPeriodStart, timeIndex } from '../clock/index.js';
import { regimentCount, type Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import { type CampaignState, CONTACT_MODIFIERS, type ContactDie, contactHistory, type ContactModifierCode, type ContactRecord, type ScoutOutcome } from '../state/index.js';
import { nowIndex } from './records.js';
import { weatherEffects } from '../weather/index.js';
import { WEATHER_CONTACT_LABEL } from './tables.js';

/** Start of the previous period, as a time index (the previous-contact window). */
function previousPeriodStart(state: CampaignState): number {
  const now = nowIndex(state);
  const periodStart = isPeriodStart(state.clock) ? now : now - 1;
  return periodStart - 2;
}

/**
 * Contact dice modifiers for one commander. "Previous contact" is another contact with one of
 * the same opponents opened this period or the one before (a standing contact's earlier round
 * counts); a captured scout of any opponent
 * counts for every commander facing it; terrain ignores the commander's own hex. Under a movement
 * profile whose weather hampers reconnaissance (ACKS: rainy, -2 on its d20 reconnaissance throw),
 * every commander takes the profile's modifier while it rains hard.
 * @see 001 Contact Dice: Contact Modifiers; 000 Scouts Out; 004 Effects of Weather Conditions
 */
export function contactModifiers(state: CampaignState, map: MapModel, record: ContactRecord, army: Army, opponents: readonly Army[], scouts: Readonly<Record<string, readonly ScoutOutcome[]>>): ContactDie['modifiers'] {
  const out: { code: ContactModifierCode; label: string; value: number }[] = [];
  const add = (code: keyof typeof CONTACT_MODIFIERS): void => {
    out.push({ code, label: CONTACT_MODIFIERS[code].label, value: CONTACT_MODIFIERS[code].value });
  };
  if (opponents.length === 0) return out;
  if (opponents.every((o) => army.march.pointsLeft > o.march.pointsLeft)) add('morePoints');
  if (opponents.every((o) => regimentCount(army) + 1 <= regimentCount(o))) add('smallest');
  if ((scouts[army.id] ?? []).includes('successful')) add('scouts');
  if (opponents.some((o) => (scouts[o.id] ?? []).includes('captured'))) add('capturedScouts');
  const since = previousPeriodStart(state);
  const related = new Set([record.id, ...(record.data.splitFrom ? [record.data.splitFrom] : [])]);
  const inWindow = (at: number): boolean => at >= since && at <= nowIndex(state);
  const previous = contactHistory(state).some((c) => {
    if (related.has(c.id) || !inWindow(timeIndex(c.openedAt))) return false;
    return c.everyone.includes(army.id) && opponents.some((o) => c.everyone.includes(o.id));
  });
  // A standing contact's round before this one is a previous contact of its own forces.
  const round = record.data.previousRound;
  const earlier = round !== undefined && inWindow(round.at) && round.armyIds.includes(army.id) && opponents.some((o) => round.armyIds.includes(o.id));
  if (previous || earlier) add('previousContact');
  const terrains = opponents.map((o) => map.terrainAt(o.hex));
  if (terrains.every((t) => t === 'clear')) add('opponentsClear');
  if (terrains.every((t) => t === 'mountain')) add('opponentsMountain');
  const recon = weatherEffects(state.weather, state.settings).reconnaissance;
  if (recon !== undefined && recon !== 0) out.push({ code: 'weather', label: WEATHER_CONTACT_LABEL, value: recon });
  return out;
}

/** Contact hour: the half period's end hour minus the spread of the unmodified dice. @see 001 Contact Hour */
export function contactHour(half: Parameters<typeof halfPeriodEndHour>[0], rawDice: readonly number[]): number {
  const spread = rawDice.length > 0 ? Math.max(...rawDice) - Math.min(...rawDice) : 0;
  return halfPeriodEndHour(half) - spread;
}
