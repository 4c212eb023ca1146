import { START_TIME } from '../clock/index.js';
import { createRngState, NO_MANUAL_DICE, type RngState } from '../dice/index.js';
import { NO_KNOWLEDGE } from '../knowledge/index.js';
import { FRESH_MARCH, FRESH_STATUS, type Army, type RegimentRole, type SideInfo } from '../forces/index.js';
import { parseHex } from '../hex/index.js';
import { buildMap, defaultBank } from '../map/index.js';
import type { ScenarioDoc } from '../scenario/index.js';
import { planOfSpec } from '../plans/index.js';
import { basePoints, movementProfile, sizedPoints, tacticalProfile } from '../profiles/index.js';
import { FIRST_MORNING } from '../weather/index.js';
import { type ArmyPlan, type CampaignSettings, type CampaignState, DEFAULT_SETTINGS } from '../state/index.js';

const ROLE_BY_ORDER: readonly RegimentRole[] = ['assault', 'support'];

/**
 * The settings a campaign opens with: the defaults, the profiles the scenario names (with the
 * tactical profile's table presets), then what the caller gives.
 */
function openingSettings(scenario: ScenarioDoc, given: Partial<CampaignSettings> | undefined): CampaignSettings {
  const tactical = scenario.tactical ? { tactical: scenario.tactical, ...tacticalProfile({ tactical: scenario.tactical }).presets } : {};
  return { ...DEFAULT_SETTINGS, ...(scenario.profile ? { profile: scenario.profile } : {}), ...tactical, ...given };
}

/** Builds the opening state of a campaign from a validated scenario. */
export function newCampaign(input: {
  id: string;
  name: string;
  scenario: ScenarioDoc;
  /** The campaign's dice: period 0 and the seed committed for period 1 (the app makes them). */
  dice?: RngState;
  /** Or dice made from a number (tests): predictable. */
  seed?: number;
  settings?: Partial<CampaignSettings>;
}): CampaignState {
  const { scenario } = input;
  const sides: Record<string, SideInfo> = {};
  for (const s of scenario.sides) sides[s.id] = { id: s.id, name: s.name, colour: s.colour, hostileTo: [...s.hostileTo] };
  const armies: Record<string, Army> = {};
  const map = buildMap(scenario.map);
  const settings = openingSettings(scenario, input.settings);
  const profile = movementProfile(settings);
  for (const a of scenario.armies) {
    const hex = parseHex(a.hex);
    if (!hex) throw new Error(`scenario army ${a.id} has a bad hex; validate the scenario first`);
    const bank = a.bank ?? defaultBank(map, hex);
    const army: Army = {
      id: a.id,
      name: a.name,
      commander: a.commander,
      side: a.side,
      hex,
      ...(bank ? { bank } : {}),
      movementClass: a.movementClass,
      ...(a.movePoints !== undefined ? { baseMovePoints: a.movePoints } : {}),
      ...(a.flying ? { flying: true } : {}),
      sight: a.sight,
      nocturnal: a.nocturnal,
      ...(a.homeTerrain ? { homeTerrain: a.homeTerrain.region ? { terrain: a.homeTerrain.terrain, region: a.homeTerrain.region } : { terrain: a.homeTerrain.terrain } } : {}),
      ...(a.tireless ? { tireless: true } : {}),
      ...(a.warMachines ? { warMachines: { state: a.warMachines } } : {}),
      regiments: a.regiments.map((r, i) => ({
        id: r.id,
        name: r.name,
        role: ROLE_BY_ORDER[i] ?? 'reserve',
        originalFigures: r.companies.reduce((n, c) => n + c.figures, 0),
        companies: r.companies.map((c) => ({ ...c })),
        ...(r.speed !== undefined ? { speed: r.speed } : {}),
      })),
      individuals: a.individuals.map((x) => ({
        id: x.id,
        name: x.name,
        kind: x.kind,
        ...(x.movePoints !== undefined ? { movePoints: x.movePoints } : {}),
        ...(x.flying ? { flying: true } : {}),
      })),
      scouts: a.scouts,
      vessels: Object.fromEntries(Object.entries(a.vessels ?? {}).flatMap(([k, n]) => (n === undefined ? [] : [[k, n]]))),
      ...(a.armyPoints !== undefined ? { armyPoints: a.armyPoints } : {}),
      formation: 'formed',
      status: FRESH_STATUS,
      march: FRESH_MARCH,
    };
    armies[a.id] = { ...army, march: { ...FRESH_MARCH, pointsLeft: sizedPoints(army, profile, basePoints(army, profile)) || profile.rates.byClass.infantry } };
  }
  const plans: Record<string, ArmyPlan> = {};
  for (const a of scenario.armies) {
    if (!a.plan) continue;
    const plan = planOfSpec(a.id, a.plan);
    if (!plan.ok) throw new Error(`scenario army ${a.id} has a bad plan (${plan.violation.message}); validate the scenario first`);
    plans[a.id] = plan.value;
  }
  return {
    id: input.id,
    name: input.name,
    scenarioId: scenario.id,
    season: scenario.start.season,
    status: 'setup',
    settings,
    clock: START_TIME,
    sides,
    armies,
    orders: {},
    weather: { ...FIRST_MORNING, sky: scenario.start.weather },
    contacts: {},
    couriers: {},
    rng: input.dice ?? createRngState(input.seed ?? 0),
    manualDice: NO_MANUAL_DICE,
    knowledge: NO_KNOWLEDGE,
    plans,
    nextId: 1,
    nextCourierId: 1,
  };
}
