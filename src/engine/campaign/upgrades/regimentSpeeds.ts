import type { Army, Regiment } from '../../forces/index.js';
import type { ScenarioDoc } from '../../scenario/index.js';
import type { CampaignState } from '../../state/index.js';

/** The scenario's regiments as far as their speed goes (the scenario stored with the campaign). */
export type SpeedSource = Pick<ScenarioDoc, 'armies'>;

/** A regiment whose speed an earlier save lost, and the speed its scenario gives it. */
export interface RestoredSpeed {
  readonly armyId: string;
  readonly regimentId: string;
  readonly speed: number;
}

/**
 * The scenario's speed for a regiment: the one of the army it came from (a division's regiments
 * came from the army it split from), else of the one regiment of the scenario with that id
 * (merged in from another army); none when the scenario gives none or the id is not unique.
 */
function scenarioSpeed(scenario: SpeedSource, army: Army, regimentId: string): number | undefined {
  const origin = army.divisionOf ?? army.id;
  const own = scenario.armies.find((a) => a.id === origin)?.regiments.find((r) => r.id === regimentId);
  if (own) return own.speed;
  const anywhere = scenario.armies.flatMap((a) => a.regiments.filter((r) => r.id === regimentId));
  return anywhere.length === 1 ? anywhere[0]?.speed : undefined;
}

/**
 * Regiments whose speed was lost: saves before state version 9 wrote a regiment's companies but
 * not its `speed`, so an ACKS regiment at 150' with no company speed marched at the class rate
 * after the first save. Nothing in the game takes a regiment's speed away, so a regiment without
 * one whose scenario states one lost it; it gets the scenario's back. A speed the state has is
 * never changed, and a regiment the scenario gives no speed gets none.
 * @see 004 Expedition speeds; docs/rulings.md Profiles: ACKS
 */
export function lostRegimentSpeeds(state: Pick<CampaignState, 'armies'>, scenario: SpeedSource): RestoredSpeed[] {
  return Object.values(state.armies).flatMap((a) => a.regiments.flatMap((r) => {
    if (r.speed !== undefined) return [];
    const speed = scenarioSpeed(scenario, a, r.id);
    return speed === undefined ? [] : [{ armyId: a.id, regimentId: r.id, speed }];
  }));
}

/** Upgrade step 8 -> 9: the lost regiment speeds back from the campaign's scenario (without one, nothing to restore from). */
export function restoreRegimentSpeeds<S extends Pick<CampaignState, 'armies'>>(state: S, scenario: SpeedSource | undefined): S {
  const lost = scenario ? lostRegimentSpeeds(state, scenario) : [];
  if (lost.length === 0) return state;
  const speedOf = (armyId: string, r: Regiment): Regiment => {
    const found = lost.find((l) => l.armyId === armyId && l.regimentId === r.id);
    return found ? { ...r, speed: found.speed } : r;
  };
  const armies = Object.fromEntries(Object.entries(state.armies).map(([id, a]) => [id, { ...a, regiments: a.regiments.map((r) => speedOf(id, r)) }]));
  return { ...state, armies };
}
