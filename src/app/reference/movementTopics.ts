import { MOVE_POINTS, type MovementClass } from '../../engine/forces/index.js';
import type { Terrain } from '../../engine/map/index.js';
import {
  CROSSING_DAYS, HALVES_PER_DAY, crossesAsCavalry, TERRAIN_COST, TIMBER_SHORT_MAX,
  crossingCost, dailyPoints, defenceShare, enterCost, halfDayPoints, restFactorFromDay, stragglerPercent,
} from '../../engine/movement/index.js';
import type { MoveOptions } from '../../engine/movement/index.js';
import { movementProfile, type MovementProfile } from '../../engine/profiles/index.js';
import { type CampaignSettings, DEFAULT_SETTINGS } from '../../engine/state/index.js';
import { VESSEL_KINDS, VESSELS, WATER_HEX_COST } from '../../engine/water/index.js';
import { NO_WEATHER_EFFECTS, FERRIES_CLOSED_FROM_LEVEL, FORDS_CLOSED_FROM_LEVEL } from '../../engine/weather/index.js';
import { fixedDice, HERE, probeArmy, probeMap, riverMap, THERE, withEffects } from './probe.js';
import { codeTable, days, fraction } from './text.js';

export interface TopicAnswer {
  readonly text: string;
  readonly data: Readonly<Record<string, unknown>>;
}

type Walker = Exclude<MovementClass, 'creature'>;
const CLASSES = Object.keys(MOVE_POINTS) as Walker[];
const DAY: MoveOptions = { period: 'day', night: false, unformed: false };
const NIGHT: MoveOptions = { period: 'night', night: true, unformed: false };

/** Daily points by class, on a forced march and when fatigued, as the engine computes them under the profile. */
function rates(profile: MovementProfile): Record<Walker, { daily: number; forced: number; fatigued: number }> {
  return Object.fromEntries(CLASSES.map((c) => [c, {
    daily: dailyPoints(probeArmy(c), profile, false, NO_WEATHER_EFFECTS, 1),
    forced: dailyPoints(probeArmy(c), profile, true, NO_WEATHER_EFFECTS, 1),
    fatigued: dailyPoints(probeArmy(c, { fatigued: true }), profile, false, NO_WEATHER_EFFECTS, 1),
  }])) as Record<Walker, { daily: number; forced: number; fatigued: number }>;
}

const percentOf = (part: number, whole: number): number => Math.round(((part - whole) / whole) * 100);

export function moveRates(settings: CampaignSettings = DEFAULT_SETTINGS): TopicAnswer {
  const byClass = rates(movementProfile(settings));
  const vessels = Object.fromEntries(VESSEL_KINDS.map((k) => [k, { name: VESSELS[k].name, rowed: VESSELS[k].rowed, sailed: VESSELS[k].sailed }]));
  const text = [
    '**Move rates**: move points a day (1 point = 1 mile), spent to enter each hex.',
    codeTable(['class', 'daily', 'forced', 'fatigued'], CLASSES.map((c) => [c, byClass[c].daily, byClass[c].forced, byClass[c].fatigued])),
    'Creatures that do not march in formation have their own rate (scenario); an army moves at its slowest.',
    codeTable(['vessel', 'rowed', 'sailed'], VESSEL_KINDS.map((k) => [VESSELS[k].name, VESSELS[k].rowed ?? '-', VESSELS[k].sailed ?? '-'])),
    `Sailed rates cover the day and the night period; rowed vessels move by day. Every sea, coast or river hex costs ${WATER_HEX_COST} points.`,
    'Terrain costs: `/rules topic:terrain`. Forced march and fatigue: `/rules topic:rest`.',
  ].join('\n');
  return { text, data: { movePoints: MOVE_POINTS, byClass, vessels, waterHexCost: WATER_HEX_COST } };
}

const LAND: readonly Exclude<Terrain, 'coast' | 'sea'>[] = ['clear', 'forest', 'hill', 'swamp', 'mountain'];
const LETTER: Record<Terrain, string> = { clear: 'c', forest: 'f', hill: 'h', swamp: 's', mountain: 'm', coast: 'w', sea: 'o' };

function costOf(terrain: Terrain, link: 'none' | 'road' | 'track', cls: MovementClass, opts: MoveOptions, settings: CampaignSettings, extra: Parameters<typeof probeArmy>[1] = {}): number | string {
  const r = enterCost(probeMap(LETTER[terrain], link), probeArmy(cls, extra), HERE, THERE, opts, movementProfile(settings));
  if (r.ok) return r.value.cost;
  return r.violation.code;
}

export function terrain(settings: CampaignSettings): TopicAnswer {
  const rows = LAND.map((t) => {
    const formedBy = CLASSES.filter((c) => c !== 'courier').filter((c) => typeof costOf(t, 'none', c, DAY, settings) === 'number');
    const nightOff = costOf(t, 'none', 'infantry', NIGHT, settings);
    return {
      terrain: t,
      cost: movementProfile(settings).terrain.costs[t],
      road: costOf(t, 'road', 'infantry', DAY, settings),
      track: costOf(t, 'track', 'infantry', DAY, settings),
      nightOffRoad: typeof nightOff === 'number' ? nightOff : 'closed',
      nightRoad: costOf(t, 'road', 'infantry', NIGHT, settings),
      formed: formedBy.length === 2 ? 'all' : formedBy.length === 0 ? 'none' : formedBy.join(', '),
    };
  });
  const home = costOf('forest', 'none', 'infantry', DAY, settings, { homeTerrain: { terrain: 'forest' } });
  const flying = costOf('mountain', 'none', 'creature', DAY, settings, { flying: true });
  const water = costOf('sea', 'none', 'infantry', DAY, settings);
  const text = [
    '**Terrain**: move points to enter a hex (road ×⅔ rounded up, track ×1).',
    codeTable(['terrain', 'cost', 'road', 'track', 'night', 'night road', 'formed off road'], rows.map((r) => [r.terrain, r.cost, r.road, r.track, r.nightOffRoad, r.nightRoad, r.formed])),
    '- **Formed off road and track**: only infantry enters forest or swamp; nobody enters mountains. Otherwise order `unformed:true`: stragglers, and one day at a rally point to reform (`/rules topic:rest`).',
    '- **Night** (light-sighted forces): double cost, only into clear hexes or along a road. Dark-seeing forces move at night at normal cost.',
    `- **Home terrain** (Ellriendi elves in their forest, lizard men in swamp): clear cost (forest: ${home}).`,
    `- **Flying creatures**: ${typeof flying === 'number' ? `clear cost everywhere (${flying}), by the house setting` : 'terrain costs as anyone (house setting off in this campaign)'}.`,
    `- **Coast and sea**: ${typeof water === 'number' ? `cost ${water}` : 'no overland movement'}; embark on vessels.`,
    '- Rivers cost extra on top: `/rules topic:crossings`.',
  ].join('\n');
  return { text, data: { terrainCost: { ...TERRAIN_COST, ...movementProfile(settings).terrain.costs }, byTerrain: rows, homeTerrainCost: home, flyingCost: flying, flyingIgnoresTerrain: settings.flyingIgnoresTerrain } };
}

type Site = 'bridge' | 'ferry' | 'ford' | 'none';

function crossing(size: 'minor' | 'major', site: Site, cls: MovementClass, weather = NO_WEATHER_EFFECTS, nightDouble = false): { method: string; points: number; halves: number; closed?: string } | { refused: string } {
  const r = crossingCost(riverMap(size, site === 'none' ? undefined : site), probeArmy(cls), HERE, 'left', 'right', { weather, nightDouble, profile: movementProfile(DEFAULT_SETTINGS) });
  if (!r.ok) return { refused: r.violation.code };
  return { method: r.value.method, points: r.value.points, halves: r.value.halves, ...(r.value.closed ? { closed: r.value.closed } : {}) };
}

function describeCrossing(c: ReturnType<typeof crossing>): string {
  if ('refused' in c) return 'no';
  if (c.method === 'bridge') return 'free';
  if (c.halves > 0) return `${c.method === 'rafts' ? 'rafts ' : ''}${days(c.halves, HALVES_PER_DAY)}`;
  return c.points === 0 ? 'free' : `+${c.points} pts`;
}

export function crossings(settings: CampaignSettings): TopicAnswer {
  const cases: readonly { label: string; size: 'minor' | 'major'; site: Site }[] = [
    { label: 'bridge', size: 'minor', site: 'bridge' },
    { label: 'ferry, minor river', size: 'minor', site: 'ferry' },
    { label: 'ferry, major river', size: 'major', site: 'ferry' },
    { label: 'ford (minor river)', size: 'minor', site: 'ford' },
    { label: 'minor, no site', size: 'minor', site: 'none' },
    { label: 'major, no site', size: 'major', site: 'none' },
  ];
  const rows = cases.map((c) => ({ ...c, infantry: crossing(c.size, c.site, 'infantry'), cavalry: crossing(c.size, c.site, 'cavalry') }));
  const closedFord = crossing('minor', 'ford', 'infantry', withEffects(NO_WEATHER_EFFECTS, { fordsClosed: true }));
  const closedFerry = crossing('major', 'ferry', 'infantry', withEffects(NO_WEATHER_EFFECTS, { ferriesClosed: true }));
  const night = crossing('minor', 'ford', 'infantry', NO_WEATHER_EFFECTS, true);
  const defence = defenceShare({ ...probeArmy('infantry'), march: { ...probeArmy('infantry').march, operation: { kind: 'rafts', hex: HERE, startedAt: 0, totalHalves: 12, remainingHalves: 12, phase: 'timber' } } });
  const halfDay = Object.fromEntries(CLASSES.map((c) => [c, halfDayPoints(probeArmy(c), movementProfile(settings))]));
  const text = [
    '**River crossings**: on top of the cost of entering the hex.',
    codeTable(['crossing', 'infantry', 'cavalry'], rows.map((r) => [r.label, describeCrossing(r.infantry), describeCrossing(r.cavalry)])),
    `- "+pts" is half the class's daily rate (infantry ${halfDay.infantry ?? '?'}, cavalry ${halfDay.cavalry ?? '?'}${crossesAsCavalry(probeArmy('courier')) ? ', couriers ride as cavalry' : ''}), not changed by forced march or fatigue.`,
    `- Days of work (ferry ${CROSSING_DAYS.ferryMinor}/${CROSSING_DAYS.ferryMajor}, rafts ${CROSSING_DAYS.rafts}: timber, build, cross) are an operation the force is committed to; while collecting timber and building it defends with ${Math.round(defence * 100)} % of its strength.`,
    `- Rafts outside forest and swamp: a die at the end of day one, 1-${TIMBER_SHORT_MAX} = too little timber; the day is lost and rafts cannot be built in that hex.`,
    '- Any crossing but a bridge leaves the force unformed; the times include reforming.',
    `- Light-sighted forces at night: double points and time (ford: ${describeCrossing(night)}).`,
    `- Rain: fords impassable from rain level ${FORDS_CLOSED_FROM_LEVEL} (a ford then means ${describeCrossing(closedFord)} for infantry), ferries inoperable from level ${FERRIES_CLOSED_FROM_LEVEL} (a major-river ferry then means ${describeCrossing(closedFerry)}).`,
    ...(settings.drought ? ['- Drought (on in this campaign): from its 5th week major rivers count as minor and minor rivers are fordable anywhere; from the 7th, major rivers too.'] : []),
  ].join('\n');
  return { text, data: { crossingDays: CROSSING_DAYS, halvesPerDay: HALVES_PER_DAY, rows, halfDayPoints: halfDay, timberShortMax: TIMBER_SHORT_MAX, raftDefenceShare: defence, fordsClosedFromLevel: FORDS_CLOSED_FROM_LEVEL, ferriesClosedFromLevel: FERRIES_CLOSED_FROM_LEVEL, rainClosed: { ford: closedFord, ferry: closedFerry }, nightFord: night } };
}

/** The rest rules of the profile, in lines. */
function restLines(profile: MovementProfile, restShare: Record<'none' | 'oneHalf' | 'period', number>): string[] {
  const halves = profile.rest.halfPeriods;
  const days = profile.rest.marchingDays;
  return [
    halves
      ? `- **Daily rest**: a period of rest (two half periods) restores ${restShare.period * 100} % of the next day's points; one half period ${restShare.oneHalf * 100} %; none ${restShare.none * 100} %.`
      : '- **Daily rest**: a day\'s points are the day\'s; the night\'s camp is rest enough.',
    ...(halves ? [`- **Rest-move in half periods**: allowed for ${halves.restMoveLimit} half periods (${halves.restMoveLimit / 2} periods); then two consecutive half periods of rest, or the force is fatigued.`] : []),
    days.kind === 'consecutive'
      ? `- **Weekly rest**: at most ${days.most} days of movement in a row; the next must be a full day of rest, or fatigue.`
      : `- **Weekly rest**: at most ${days.most} marching days in any ${days.days}; a force that marches more is fatigued until it has rested the days it owes.${profile.rest.tirelessExempt ? ' Tireless troops (constructs) owe no rest.' : ''}`,
  ];
}

export function rest(settings: CampaignSettings = DEFAULT_SETTINGS): TopicAnswer {
  const profile = movementProfile(settings);
  const byClass = rates(profile);
  const inf = byClass.infantry;
  const forcedPct = percentOf(inf.forced, inf.daily);
  const fatiguedPct = percentOf(inf.fatigued, inf.daily);
  const restShare = {
    none: restFactorFromDay(['moved', 'moved', 'moved', 'moved'], profile),
    oneHalf: restFactorFromDay(['moved', 'moved', 'moved', 'rested'], profile),
    period: restFactorFromDay(['moved', 'moved', 'rested', 'rested'], profile),
  };
  const stragglers = { min: stragglerPercent(fixedDice(1), 'reference'), max: stragglerPercent(fixedDice(6), 'reference') };
  const days = profile.rest.marchingDays;
  const text = [
    `**Rest, forced march and fatigue**${profile.id === DEFAULT_SETTINGS.profile ? '' : ` (${profile.name}, ${profile.source})`}`,
    ...restLines(profile, restShare),
    `- **Forced march**: ${forcedPct > 0 ? '+' : ''}${forcedPct} % daily points; rest the next day, or fatigue${profile.forcedMarch.declaredEarlyDeployment > 0 ? ` (even if the extra was not used). Declared before the day's march: +${profile.forcedMarch.declaredEarlyDeployment} to the deployment dice of a battle that day` : ''}.`,
    fatiguedPct < 0 ? `- **Fatigued**: ${fatiguedPct} % daily points (fractions dropped) until a full day of rest.` : '- **Fatigued**: the march is not slowed; the force fights fatigued until it has rested.',
    codeTable(['class', 'daily', 'forced', 'fatigued'], CLASSES.map((c) => [c, byClass[c].daily, byClass[c].forced, byClass[c].fatigued])),
    profile.carryUnspent
      ? '- **Unspent points**: a march short of the points for its next hex carries them to the next day; a halt or contact loses them.'
      : '- **Saving points**: unspent points carry to tomorrow only with an explicit save order; lost when the force stays put, halts short or makes contact.',
    `- **Unformed**: ${stragglers.min}-${stragglers.max} % of each regiment straggles per day (half-dice × 5, rounded up); one day at the rally point to reform, where the same share rejoins per day of waiting; stragglers left behind are lost.`,
    `- A full day aboard a ${VESSEL_KINDS.filter((k) => !VESSELS[k].crewed && VESSELS[k].capacity > 0).map((k) => VESSELS[k].name).join(' or ')} is rest (not crew); aboard ${VESSEL_KINDS.filter((k) => VESSELS[k].crewed).map((k) => `${VESSELS[k].name}s`).join(', ')} the troops are crew.`,
  ].join('\n');
  return { text, data: { restMoveLimit: profile.rest.halfPeriods?.restMoveLimit, maxMarchDays: days.kind === 'consecutive' ? days.most : undefined, marchingDays: days, restShare, forcedPercent: forcedPct, fatiguedPercent: fatiguedPct, byClass, stragglerPercent: stragglers } };
}

const WATERS = (k: (typeof VESSEL_KINDS)[number]): string => {
  const v = VESSELS[k];
  const where = [v.seagoing ? (v.openSea ? 'sea, open sea' : 'coastal waters') : '', v.rivers ? 'rivers' : ''].filter(Boolean).join(', ');
  return where;
};

export function vessels(): TopicAnswer {
  const LANDING = { beach: 'beaches', anchorOffshore: 'anchors offshore', portOnly: 'port only' } as const;
  const text = [
    '**Vessels**: capacity in troop figures (individuals ride free), cost in army points.',
    codeTable(['vessel', 'rowed', 'sailed', 'figures', 'cost'], VESSEL_KINDS.map((k) => [VESSELS[k].name, VESSELS[k].rowed ?? '-', VESSELS[k].sailed ?? '-', VESSELS[k].capacity === 0 ? '-' : fraction(VESSELS[k].capacity), VESSELS[k].cost === undefined ? 'n/a' : fraction(VESSELS[k].cost ?? 0)])),
    ...VESSEL_KINDS.map((k) => {
      const v = VESSELS[k];
      const notes = [
        WATERS(k),
        LANDING[v.landing],
        v.deepDraft ? 'coast hexes only with a channel or port' : '',
        v.escort ? 'escort: one per regiment carried' : '',
        v.crewed ? 'troops aboard are crew' : (v.capacity > 0 ? 'a day aboard is rest' : ''),
        v.catapultCost !== undefined ? `light catapult +${fraction(v.catapultCost)}` : '',
        v.cost === undefined ? 'not bought' : '',
      ].filter(Boolean);
      return `- **${v.name}**: ${notes.join('; ')}.`;
    }),
    `Every sea, coast or river hex costs ${WATER_HEX_COST} points. An army embarks a whole regiment at a time.`,
  ].join('\n');
  return { text, data: { vessels: VESSELS, waterHexCost: WATER_HEX_COST } };
}
