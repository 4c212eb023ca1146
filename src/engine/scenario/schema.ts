import { z } from 'zod';
import { TERRAIN_LETTERS } from '../map/mapModel.js';

/**
 * The scenario file format (JSON). Structure is checked here; cross-references (hexes on the map,
 * rivers that connect, sides that exist) are checked by validateScenario.
 * @see docs/scenario-format.md
 */
const hexId = z.string().regex(/^(\d{4}|\d{6})$/, 'must be a hex id like "0712" (column then row)');
const id = z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be a short lowercase id (letters, digits, dashes)');
const terrainRow = z.string().regex(new RegExp(`^[${Object.keys(TERRAIN_LETTERS).join('')}]*$`), `may only hold the terrain letters ${Object.keys(TERRAIN_LETTERS).join(' ')}`);

const riverStep = z.object({
  hex: hexId,
  size: z.enum(['major', 'minor']),
  crossing: z.enum(['ford', 'ferry', 'bridge']).optional(),
  cataract: z.boolean().optional(),
}).strict();

export const mapSchema = z.object({
  width: z.number().int().min(2).max(999),
  height: z.number().int().min(2).max(999),
  terrain: z.array(terrainRow),
  roads: z.array(z.array(hexId).min(2)).default([]),
  tracks: z.array(z.array(hexId).min(2)).default([]),
  rivers: z.array(z.object({
    id,
    name: z.string().min(1),
    hexes: z.array(riverStep).min(1),
    mouth: hexId.optional(),
    navigable: z.boolean().optional(),
  }).strict()).default([]),
  ports: z.array(z.object({ hex: hexId, name: z.string().min(1) }).strict()).default([]),
  channels: z.array(hexId).default([]),
  mudflats: z.array(hexId).default([]),
  towns: z.array(z.object({ hex: hexId, name: z.string().min(1) }).strict()).default([]),
  fortifications: z.array(z.object({ hex: hexId, name: z.string().min(1), kind: z.enum(['citadel', 'keep', 'fort']) }).strict()).default([]),
  regions: z.array(z.object({ id, name: z.string().min(1), hexes: z.array(hexId) }).strict()).default([]),
  labels: z.array(z.object({ hex: hexId, text: z.string().min(1), kind: z.enum(['region', 'place', 'water']) }).strict()).default([]),
}).strict();

const company = z.object({
  troopType: z.string().min(1),
  basic: z.enum(['infantry', 'cavalry']),
  figures: z.number().int().min(0),
}).strict();

const regiment = z.object({
  id,
  name: z.string().min(1),
  companies: z.array(company).min(1),
}).strict();

const individual = z.object({
  id,
  name: z.string().min(1),
  kind: z.string().min(1),
  movePoints: z.number().int().positive().optional(),
  flying: z.boolean().optional(),
}).strict();

export const VESSEL_KINDS = ['galley', 'longship', 'riverBoat', 'sailingShip', 'troopTransport'] as const;

export const armySchema = z.object({
  id,
  name: z.string().min(1),
  commander: z.string().min(1),
  side: id,
  hex: hexId,
  movementClass: z.enum(['infantry', 'cavalry', 'courier', 'creature']),
  movePoints: z.number().int().positive().optional(),
  flying: z.boolean().optional(),
  sight: z.enum(['light', 'dark']),
  nocturnal: z.boolean().default(false),
  homeTerrain: z.object({ terrain: z.enum(['clear', 'forest', 'hill', 'swamp', 'mountain']), region: id.optional() }).strict().optional(),
  regiments: z.array(regiment).default([]),
  individuals: z.array(individual).default([]),
  scouts: z.number().int().min(0).default(1),
  vessels: z.partialRecord(z.enum(VESSEL_KINDS), z.number().int().min(0)).default({}),
  armyPoints: z.number().int().min(0).optional(),
  notes: z.string().optional(),
}).strict();

export const scenarioSchema = z.object({
  id,
  name: z.string().min(1),
  description: z.string().default(''),
  start: z.object({
    /** Free text shown with the game day, e.g. "late autumn". */
    season: z.string().default(''),
    weather: z.enum(['clear', 'cloudy', 'lightRain', 'hardRain']).default('clear'),
  }).strict().default({ season: '', weather: 'clear' }),
  map: mapSchema,
  sides: z.array(z.object({
    id,
    name: z.string().min(1),
    colour: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like "#b03030"'),
    hostileTo: z.array(id).default([]),
  }).strict()).min(2),
  armies: z.array(armySchema).min(1),
}).strict();

export type ScenarioDoc = z.infer<typeof scenarioSchema>;
export type ArmyDoc = z.infer<typeof armySchema>;
