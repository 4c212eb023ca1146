import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { FRESH_MARCH, FRESH_STATUS, type Army } from '../../src/engine/forces/army.js';
import { parseHex } from '../../src/engine/hex/hexId.js';
import { buildMap, type MapData, type MapModel } from '../../src/engine/map/mapModel.js';
import { createRngState, NO_MANUAL_DICE } from '../../src/engine/dice/index.js';
import { NO_KNOWLEDGE } from '../../src/engine/knowledge/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import type { CampaignState, Order } from '../../src/engine/state/index.js';
import { FIRST_MORNING } from '../../src/engine/weather/types.js';
import type { Hex } from '../../src/engine/hex/hex.js';

/**
 * A small synthetic map with every feature the renderer draws. Letters: c clear, f forest,
 * h hill, s swamp, m mountain, w coast, o open sea. Row 1 first.
 */
export const TERRAIN_ROWS = [
  'oooooooooooooooo',
  'wwwwwwwwwwwwwwww',
  'ccccffffcchhhwww',
  'cccffffffchhmmww',
  'ccssfffcccchmmmw',
  'csssffcccchhmmmc',
  'ccsscccccchhhmmc',
  'cccccccffffcchhc',
  'ccchhcccffffcccc',
  'cchhmmccfffccsss',
  'chhmmmcccccccsss',
  'ccchhcccccccccss',
];

export const MAP_DATA: MapData = {
  width: 16,
  height: 12,
  terrain: TERRAIN_ROWS,
  roads: [['0312', '0311', '0410', '0409', '0509', '0608', '0708', '0807', '0907', '1006', '1106']],
  tracks: [['1106', '1205', '1204', '1304', '1403']],
  rivers: [
    {
      id: 'great', name: 'Great River',
      hexes: [
        { hex: '0812', size: 'minor' },
        { hex: '0811', size: 'minor', crossing: 'ford' },
        { hex: '0810', size: 'minor' },
        { hex: '0809', size: 'major' },
        { hex: '0709', size: 'major' },
        { hex: '0708', size: 'major', crossing: 'bridge' },
        { hex: '0707', size: 'major' },
        { hex: '0706', size: 'major', crossing: 'ferry' },
        { hex: '0705', size: 'major' },
        { hex: '0704', size: 'major' },
        { hex: '0703', size: 'major' },
      ],
      mouth: '0702',
    },
    {
      id: 'canal', name: 'Old Canal', navigable: true,
      hexes: [
        { hex: '1409', size: 'major' },
        { hex: '1408', size: 'major', cataract: true },
        { hex: '1308', size: 'major' },
        { hex: '1307', size: 'major' },
        { hex: '1306', size: 'major', cataract: true },
        { hex: '1305', size: 'major' },
      ],
    },
  ],
  ports: [{ hex: '0702', name: 'East Port' }],
  channels: ['0302', '0301'],
  mudflats: ['0102', '0202', '0302', '0402', '0502'],
  towns: [{ hex: '0509', name: 'Fordham' }, { hex: '0702', name: 'East Port' }],
  fortifications: [{ hex: '1304', name: 'The Citadel', kind: 'citadel' }, { hex: '0312', name: 'The Keep', kind: 'keep' }],
  regions: [{ id: 'elf-wood', name: 'Ellriendi', hexes: ['0604', '0605', '0504'] }],
  labels: [
    { hex: '0605', text: 'Ellriendi', kind: 'region' },
    { hex: '1201', text: 'Northern Sea', kind: 'water' },
    { hex: '1305', text: 'Throrgrmir Valley', kind: 'place' },
  ],
};

export function testMap(): MapModel {
  return buildMap(MAP_DATA);
}

export function h(id: string): Hex {
  const x = parseHex(id);
  if (!x) throw new Error(`bad hex ${id}`);
  return x;
}

export function army(id: string, commander: string, side: string, at: string, figures: number, over: Partial<Army> = {}): Army {
  return {
    id,
    name: `${commander}'s army`,
    commander,
    side,
    hex: h(at),
    movementClass: 'infantry',
    sight: 'light',
    nocturnal: false,
    regiments: [{ id: `${id}-r1`, name: 'First', role: 'assault', originalFigures: 40, companies: [{ troopType: 'heavy foot', basic: 'infantry', figures }] }],
    individuals: [],
    scouts: 1,
    vessels: {},
    formation: 'formed',
    status: FRESH_STATUS,
    march: FRESH_MARCH,
    ...over,
  };
}

export function testState(figures: { arn: number; mordred: number; ingegerd: number } = { arn: 32, mordred: 40, ingegerd: 20 }): CampaignState {
  const armies: Record<string, Army> = {
    arn: army('arn', 'Arn', 'law', '0608', figures.arn),
    mordred: army('mordred', 'Mordred', 'chaos', '1106', figures.mordred, { status: { ...FRESH_STATUS, inContact: true, fatigued: true } }),
    ingegerd: army('ingegerd', 'Ingegerd', 'law', '0410', figures.ingegerd, { formation: 'unformed', status: { ...FRESH_STATUS, inBattle: true } }),
  };
  const order: Order = {
    armyId: 'arn', kind: 'move', period: 'day', path: [h('0708'), h('0807'), h('0907'), h('1006')],
    forced: false, unformed: false, save: false, givenBy: 'u1', givenAt: { day: 1, half: 0 },
  };
  return {
    id: 'c1', name: 'Test Campaign', scenarioId: 'test', season: 'autumn', status: 'running', settings: DEFAULT_SETTINGS,
    clock: { day: 2, half: 0 },
    sides: {
      law: { id: 'law', name: 'Forces of Law', colour: '#2f5fb3', hostileTo: ['chaos'] },
      chaos: { id: 'chaos', name: 'Chaos Armies', colour: '#b3302f', hostileTo: ['law'] },
    },
    armies,
    orders: { arn: order },
    weather: FIRST_MORNING,
    contacts: {},
    couriers: {
      k1: { id: 'k1', fromArmy: 'arn', toArmy: 'ingegerd', side: 'law', hex: h('0509'), message: 'secret plan', sentAt: { day: 1, half: 3 }, status: 'travelling', data: { horse: true, night: false, carry: 0, expectedBy: 8, trail: ['0509'] } },
      k2: { id: 'k2', fromArmy: 'mordred', toArmy: 'arn', side: 'chaos', hex: h('1205'), message: 'chaos plan', sentAt: { day: 1, half: 3 }, status: 'travelling', data: { horse: true, night: false, carry: 0, expectedBy: 8, trail: ['1205'] } },
    },
    rng: createRngState(1), manualDice: NO_MANUAL_DICE, knowledge: NO_KNOWLEDGE,
    nextId: 1, nextCourierId: 1, plans: {},
  };
}

/** A patterned opaque ground of 8 px squares (as the map is), for sprite copies to be compared on. */
export function patternedGround(w: number, h: number): Canvas {
  const c = createCanvas(w, h);
  const ctx = c.getContext('2d');
  for (let y = 0; y < h; y += 8) for (let x = 0; x < w; x += 8) {
    ctx.fillStyle = (x + y) % 16 === 0 ? '#d8c9a3' : '#7fa35b';
    ctx.fillRect(x, y, 8, 8);
  }
  return c;
}
