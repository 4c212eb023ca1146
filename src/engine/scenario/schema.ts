import { z } from 'zod';
import { TERRAIN_LETTERS } from '../map/index.js';
import { MOVEMENT_PROFILE_IDS, TACTICAL_PROFILE_IDS } from '../profiles/index.js';
import { VESSEL_KINDS } from '../state/index.js';
import { isPlainName, PLAIN_NAME_RULE } from '../events/index.js';

/**
 * The scenario file format (JSON). Structure is checked here; cross-references (hexes on the map,
 * rivers that connect, sides that exist) are checked by validateScenario.
 * @see docs/scenario-format.md
 */
/**
 * Size limits of an uploaded scenario: anything larger is refused up front, so a huge or
 * hostile file cannot stall a tick, the renderer or a reply (the Valormr scenario is 40 x 30
 * hexes with 24 armies; the benchmark's synthetic campaign is 100 x 100 with 200).
 */
export const SCENARIO_LIMITS = {
  /** Hexes on the map (width x height), e.g. 200 x 200. */
  mapHexes: 40_000,
  armies: 500,
  sides: 20,
  /** Items in each map list (roads, rivers, towns, labels, ...) and hexes in one chain. */
  listItems: 5_000,
  /** Regiments or individuals in one army; companies in one regiment. */
  unitsPerArmy: 100,
  /** A name or other short text. */
  name: 100,
  /** An id (army, side, region...): a button's custom id carries an army's, and tests/scenarios/staleButtons.test.ts checks the longest fits Discord's 100 characters. */
  id: 40,
  /** The description and an army's notes. */
  text: 2_000,
} as const;
const L = SCENARIO_LIMITS;
/**
 * Characters a name may not hold: controls (NUL, escapes), bidirectional overrides and isolates,
 * zero-width and other invisible format characters. They would reach the chronicle and the maps,
 * reorder or hide the text around them.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
/**
 * The scenario and map formats (zod) are built on first use (scenarioSchemas()), not at module
 * load, so a start that answers its first command before any scenario is read does not build them
 * (issue 25, startupMs). The map's part, with the names and ids the rest shares:
 */
function buildMapParts() {
  const name = z.string().min(1).max(L.name)
    .refine((s) => !UNPRINTABLE.test(s), { message: 'holds control, bidirectional or zero-width characters: use printable text only' })
    .refine(isPlainName, { message: PLAIN_NAME_RULE });
  const list = <T extends z.ZodType>(item: T) => z.array(item).max(L.listItems);

  const hexId = z.string().regex(/^(\d{4}|\d{6})$/, 'must be a hex id like "0712" (column then row)');
  const id = z.string().max(L.id).regex(/^[a-z][a-z0-9-]*$/, 'must be a short lowercase id (letters, digits, dashes)')
    // Ids key plain objects in the campaign state: "constructor" would find Object's own.
    .refine((v) => !Object.prototype.hasOwnProperty.call(Object.prototype, v), 'is a reserved word; choose another id');
  const terrainRow = z.string().max(999).regex(new RegExp(`^[${Object.keys(TERRAIN_LETTERS).join('')}]*$`), `may only hold the terrain letters ${Object.keys(TERRAIN_LETTERS).join(' ')}`);

  const riverStep = z.object({
    hex: hexId,
    size: z.enum(['major', 'minor']),
    crossing: z.enum(['ford', 'ferry', 'bridge']).optional(),
    cataract: z.boolean().optional(),
  }).strict();

  const mapSchema = z.object({
    width: z.number().int().min(2).max(999),
    height: z.number().int().min(2).max(999),
    terrain: z.array(terrainRow).max(999),
    roads: list(list(hexId).min(2)).default([]),
    tracks: list(list(hexId).min(2)).default([]),
    rivers: list(z.object({
      id,
      name,
      hexes: list(riverStep).min(1),
      mouth: hexId.optional(),
      navigable: z.boolean().optional(),
    }).strict()).default([]),
    ports: list(z.object({ hex: hexId, name }).strict()).default([]),
    channels: list(hexId).default([]),
    mudflats: list(hexId).default([]),
    towns: list(z.object({ hex: hexId, name }).strict()).default([]),
    fortifications: list(z.object({ hex: hexId, name, kind: z.enum(['citadel', 'keep', 'fort']) }).strict()).default([]),
    regions: list(z.object({ id, name, hexes: z.array(hexId).max(L.mapHexes) }).strict()).default([]),
    labels: list(z.object({ hex: hexId, text: name, kind: z.enum(['region', 'place', 'water']) }).strict()).default([]),
  }).strict();

  return { name, hexId, id, mapSchema };
}

function buildSchemas() {
  const { name, hexId, id, mapSchema } = buildMapParts();
  /** Exploration speed in feet a turn (ACKS: 30' to 360'; read by profiles with a speed table). */
  const speed = z.number().int().min(10).max(480);

  const company = z.object({
    troopType: name,
    basic: z.enum(['infantry', 'cavalry']),
    figures: z.number().int().min(0).max(100_000),
    speed: speed.optional(),
    /** War machines (artillery, rams, towers): they move at the machine speeds. */
    warMachine: z.boolean().optional(),
    /** Troops that need no rest (constructs). */
    tireless: z.boolean().optional(),
    /** Trained and designated as skirmishers (open order on a 002 table). */
    skirmishers: z.boolean().optional(),
  }).strict();

  const regiment = z.object({
    id,
    name,
    companies: z.array(company).min(1).max(L.unitsPerArmy),
    /** Speed for every company without its own. */
    speed: speed.optional(),
  }).strict();

  const individual = z.object({
    id,
    name,
    kind: name,
    movePoints: z.number().int().positive().max(1_000).optional(),
    flying: z.boolean().optional(),
  }).strict();

  const armySchema = z.object({
    id,
    name,
    commander: name,
    side: id,
    hex: hexId,
    /** Which bank of a river the army starts on, where its hex holds one (default: left). */
    bank: z.enum(['left', 'right']).optional(),
    movementClass: z.enum(['infantry', 'cavalry', 'courier', 'creature']),
    movePoints: z.number().int().positive().max(1_000).optional(),
    flying: z.boolean().optional(),
    sight: z.enum(['light', 'dark']),
    nocturnal: z.boolean().default(false),
    homeTerrain: z.object({ terrain: z.enum(['clear', 'forest', 'hill', 'swamp', 'mountain']), region: id.optional() }).strict().optional(),
    /** The whole army needs no rest (constructs). */
    tireless: z.boolean().optional(),
    /** Its war machines at the start (default disassembled, for the march). */
    warMachines: z.enum(['assembled', 'disassembled']).optional(),
    regiments: z.array(regiment).max(L.unitsPerArmy).default([]),
    individuals: z.array(individual).max(L.unitsPerArmy).default([]),
    scouts: z.number().int().min(0).max(100).default(1),
    vessels: z.partialRecord(z.enum(VESSEL_KINDS), z.number().int().min(0).max(10_000)).default({}),
    armyPoints: z.number().int().min(0).max(1_000_000).optional(),
    notes: z.string().max(L.text).optional(),
    /** The plan it follows while nobody commands it (src/engine/plans; docs/scenario-format.md). */
    plan: z.object({
      kind: z.enum(['hold', 'march', 'patrol', 'shadow', 'withdraw', 'garrison']),
      /** Hex ids: one place (march, withdraw, garrison) or a patrol's points in order. */
      places: z.array(hexId).max(8).default([]),
      /** The army a shadow plan follows. */
      target: id.optional(),
      contact: z.enum(['evade', 'delay', 'referee']).default('evade'),
    }).strict().optional(),
  }).strict();

  const scenarioSchema = z.object({
    id,
    name,
    description: z.string().max(L.text).default(''),
    /** The movement profile the scenario is written for (default: Valormr). */
    profile: z.enum(MOVEMENT_PROFILE_IDS).optional(),
    /** The tabletop its battles are fought on (default: Valormr's 001). */
    tactical: z.enum(TACTICAL_PROFILE_IDS).optional(),
    start: z.object({
      /** Free text shown with the game day, e.g. "late autumn". */
      season: z.string().max(L.name).default(''),
      weather: z.enum(['clear', 'cloudy', 'lightRain', 'hardRain']).default('clear'),
    }).strict().default({ season: '', weather: 'clear' }),
    map: mapSchema,
    sides: z.array(z.object({
      id,
      name,
      colour: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like "#b03030"'),
      hostileTo: z.array(id).max(L.sides).default([]),
    }).strict()).min(2).max(L.sides),
    armies: z.array(armySchema).min(1).max(L.armies),
  }).strict();
  return { map: mapSchema, scenario: scenarioSchema };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;

/** The scenario file's format (`scenario`) and its map's (`map`), built once, on the first call. */
export function scenarioSchemas(): ReturnType<typeof buildSchemas> {
  schemas ??= buildSchemas();
  return schemas;
}

export type ScenarioDoc = z.infer<ReturnType<typeof buildSchemas>['scenario']>;
