import type { Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import { marchFormation } from '../movement/index.js';
import type { TacticalProfile } from '../profiles/index.js';
import type { CampaignState, DealtCard, ForceTableNote, TableNote } from '../state/index.js';

/**
 * How the strategic state reads on the tabletop of the campaign's tactical profile, as typed
 * facts for the briefing: what the whole table needs (public) and what each force brings to it
 * (its commander's and the referee's only). A profile that prints nothing for a reading gives no
 * fact for it, so the Valormr table (001) adds nothing to the briefing.
 * @see 002 Movement: Formations; Forced march attrition; Forced march exhaustion; Terrain effects;
 *   003 Movement: Rout; Pursuit; Evade; Flying
 */

const CARD_KINDS = ['hill', 'woods', 'river', 'stream'] as const;

/** The public notes of the tactical profile for a battle of these armies. */
export function tableNotes(state: CampaignState, map: MapModel, profile: TacticalProfile, armies: readonly Army[], cards: readonly DealtCard[]): TableNote[] {
  const notes: TableNote[] = [];
  if (profile.ratesFromReferee) notes.push({ kind: 'table', name: profile.name, unit: profile.unit });
  const start = profile.startingFormation;
  if (start) notes.push({ kind: 'startingFormations', armies: armies.map((a) => ({ armyId: a.id, formation: start.byMarch[marchFormation(map, a)] })) });
  if (profile.dirtRoads) {
    const w = state.weather;
    notes.push({ kind: 'roads', wet: w.rainLevel > 0 || w.sky === 'lightRain' || w.sky === 'hardRain', rainLevel: w.rainLevel });
  }
  const readings = profile.terrainCards;
  if (readings) {
    const dealt = new Set(cards.map((c) => c.card));
    const read = CARD_KINDS.flatMap((card) => {
      const reading = readings[card];
      return reading && dealt.has(card) ? [{ card, reading }] : [];
    });
    if (read.length > 0) notes.push({ kind: 'terrainCards', cards: read });
  }
  if (profile.conventions) notes.push({ kind: 'conventions' });
  return notes;
}

/** Whether a troop type names levies (002: they fight in mass). */
const isLevy = (troopType: string): boolean => /\blev(y|ies)\b/i.test(troopType);

/** The notes of the tactical profile for one force. */
export function forceTableNotes(state: CampaignState, profile: TacticalProfile, army: Army): ForceTableNote[] {
  const notes: ForceTableNote[] = [];
  // 002's attrition is for a forced march on the table; on a strategic one only when the referee says so (a setting, off by default).
  const forced = state.settings.marchAttrition ? profile.forcedMarch : undefined;
  if (forced) {
    const because = [
      ...(army.march.forcedMarchDay === state.clock.day ? ['forcedMarch' as const] : []),
      ...(army.status.fatigued ? ['fatigued' as const] : []),
    ];
    if (because.length > 0) notes.push({ kind: 'forcedMarchAttrition', because, attrition: forced.attrition, exhaustionDie: forced.exhaustionDie, exhaustion: forced.exhaustion });
  }
  const start = profile.startingFormation;
  if (start) {
    const companies = army.regiments.flatMap((r) => r.companies.filter((c) => c.figures > 0).map((c) => ({ ...c, regiment: r.name })));
    const named = (list: typeof companies): string[] => list.map((c) => `${c.troopType} (${c.regiment})`);
    const groups = [
      { formation: start.skirmishers, companies: named(companies.filter((c) => c.skirmishers === true)) },
      { formation: start.levy, companies: named(companies.filter((c) => !c.skirmishers && isLevy(c.troopType))) },
    ].filter((g) => g.companies.length > 0);
    if (groups.length > 0) notes.push({ kind: 'companyFormations', groups });
  }
  const flying = profile.flying;
  if (flying && (army.flying === true || army.individuals.some((i) => i.flying === true))) notes.push({ kind: 'flying', unit: profile.unit, ...flying });
  return notes;
}
