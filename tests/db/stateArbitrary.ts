import fc from 'fast-check';
import type { GameTime } from '../../src/engine/clock/index.js';
import type { Army, Company, Individual, MarchState, Regiment } from '../../src/engine/forces/army.js';
import type { Hex } from '../../src/engine/hex/hex.js';
import { offsetToHex } from '../../src/engine/hex/hexId.js';
import { MANUAL_DICE_GROUPS } from '../../src/engine/dice/index.js';
import type { ManualDiceState } from '../../src/engine/dice/manual.js';
import { EXPEDITION_SPEEDS, LAND_TERRAINS, MOVEMENT_PROFILE_IDS, TACTICAL_PROFILE_IDS } from '../../src/engine/profiles/index.js';
import type { ArmyPlan, CampaignState, ContactRecord, CourierRecord, KnowledgeState, Order, PlanOrder, Sightings, WeatherState } from '../../src/engine/state/index.js';
import { TEMPERATURES, type CampaignSettings } from '../../src/engine/state/settings.js';

/**
 * Generated campaign states for the round-trip property (tests/db/stateRoundTrip.test.ts): every
 * field of every entity the repositories map, with each optional field present or absent, across
 * both movement profiles and the three tactical ones (regiment and company speeds, war machines,
 * divisions, tireless troops, vessels and fleets, couriers, contacts at every step, manual dice
 * waits, fog knowledge, every setting). States are valid in shape, not necessarily playable: the
 * repositories' contract is to give back what they were given.
 */

/**
 * A record whose optional keys are present or absent (never present as `undefined`: JSON cannot
 * keep that). Typed by where it is used: the engine types are the check of the shapes here.
 */
const rec = (model: Record<string, fc.Arbitrary<unknown>>, required: readonly string[]): fc.Arbitrary<never> =>
  fc.record(model, { requiredKeys: [...required] }) as fc.Arbitrary<never>;

// Built from integers and lists: regex and grapheme strings are ten times slower to generate.
const word = fc.integer({ min: 0, max: 1e6 }).map((n) => `w${n.toString(36)}`);
/** Names as people type them: accents, spaces, quotes, emoji. */
const name = fc.oneof(
  fc.constantFrom('Hadewych', 'Æskrvald', 'Zoë "the Bold"', "O'Rourke's Foot", '🐉 Wyrm of the North', 'Ellriendi', '  padded  ', '名前'),
  fc.string({ minLength: 1, maxLength: 10 }),
);
const hexDigits = (n: number) => fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((x) => x.toString(16).padStart(8, '0').slice(-n));
const small = fc.integer({ min: 0, max: 60 });
/** Points may be halves and quarters (weather factors, saved fractions). */
const points = fc.integer({ min: 0, max: 400 }).map((n) => n / 4);
const hex: fc.Arbitrary<Hex> = fc.record({ col: fc.integer({ min: 1, max: 120 }), row: fc.integer({ min: 1, max: 120 }) }).map(offsetToHex);
const gameTime: fc.Arbitrary<GameTime> = fc.record({ day: fc.integer({ min: 1, max: 400 }), half: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const) });
const bank = fc.constantFrom('left' as const, 'right' as const);
/** Nested bookkeeping the repositories store whole: any JSON object. */
const blob = fc.dictionary(word, fc.oneof(fc.integer(), fc.boolean(), word, fc.array(fc.integer({ min: -5, max: 50 }), { maxLength: 4 })), { maxKeys: 4 });

const company: fc.Arbitrary<Company> = rec({
  troopType: name,
  basic: fc.constantFrom('infantry' as const, 'cavalry' as const),
  figures: fc.integer({ min: 0, max: 80 }),
  speed: fc.constantFrom(...EXPEDITION_SPEEDS.map((s) => s.feet)),
  warMachine: fc.boolean(),
  tireless: fc.boolean(),
  skirmishers: fc.boolean(),
}, ['troopType', 'basic', 'figures']);

const regiment = (id: string): fc.Arbitrary<Regiment> => rec({
  id: fc.constant(id),
  name,
  role: fc.constantFrom('assault' as const, 'support' as const, 'reserve' as const),
  originalFigures: fc.integer({ min: 0, max: 200 }),
  companies: fc.array(company, { maxLength: 4 }),
  speed: fc.constantFrom(...EXPEDITION_SPEEDS.map((s) => s.feet)),
}, ['id', 'name', 'role', 'originalFigures', 'companies']);

const individual = (id: string): fc.Arbitrary<Individual> => rec({
  id: fc.constant(id),
  name,
  kind: fc.constantFrom('leader', 'hero', 'wizard', 'troll', 'dragon'),
  movePoints: fc.integer({ min: 1, max: 96 }),
  flying: fc.boolean(),
}, ['id', 'name', 'kind']);

const ids = (prefix: string, max: number) => fc.integer({ min: 0, max }).map((n) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`));
/** Contact or courier ids: numbered across the campaign (positions public), and now and then one derived in fog of war (letters: src/engine/state/ids.ts). */
const readIds = (prefix: string, max: number) => fc.tuple(ids(prefix, max), fc.boolean()).map(([l, fog]) => (fog ? [...l, `${prefix}hkmnpq`] : l));
const each = <T>(list: readonly string[], f: (id: string) => fc.Arbitrary<T>): fc.Arbitrary<T[]> => (list.length === 0 ? fc.constant([]) : fc.tuple(...list.map(f)));

const march: fc.Arbitrary<MarchState> = rec({
  pointsLeft: points,
  spentToday: points,
  spentPeriod: points,
  savedPoints: points,
  restFactor: fc.constantFrom(0, 0.5, 1),
  daysMarched: fc.integer({ min: 0, max: 7 }),
  recentDays: fc.array(fc.boolean(), { maxLength: 14 }),
  recentHalves: fc.array(fc.constantFrom('moved' as const, 'worked' as const, 'rested' as const, 'battle' as const), { maxLength: 12 }),
  movedToday: fc.boolean(),
  unformedToday: fc.boolean(),
  saveRequested: fc.boolean(),
  saveLost: fc.boolean(),
  allowanceToday: points,
  forcedMarchDay: fc.integer({ min: 1, max: 400 }),
  forcedMarchEarly: fc.boolean(),
  shortOfPoints: fc.boolean(),
  fatigueReason: fc.constantFrom('forcedMarch' as const, 'seventhDay' as const, 'noLongRest' as const, 'marchWindow' as const, 'referee' as const),
  restDays: fc.integer({ min: 0, max: 9 }),
  stragglers: fc.array(fc.record({ regimentId: word, company: fc.integer({ min: 0, max: 3 }), figures: fc.integer({ min: 1, max: 9 }) }), { maxLength: 3 }),
  rallyPoint: hex,
  operation: rec({
    kind: fc.constantFrom('ferry' as const, 'rafts' as const),
    hex,
    fromBank: bank,
    toBank: bank,
    startedAt: small,
    totalHalves: small,
    remainingHalves: small,
    phase: fc.constantFrom('timber' as const, 'build' as const, 'cross' as const),
  }, ['kind', 'hex', 'startedAt', 'totalHalves', 'remainingHalves', 'phase']),
  noRaftHexes: fc.array(hex, { maxLength: 3 }),
  activeHalf: fc.record({ at: small, moved: fc.boolean() }),
}, ['pointsLeft', 'spentToday', 'spentPeriod', 'savedPoints', 'restFactor', 'daysMarched', 'recentDays', 'recentHalves', 'movedToday', 'unformedToday',
  'saveRequested', 'saveLost', 'allowanceToday', 'restDays', 'stragglers', 'noRaftHexes']);

const army = (id: string, sides: readonly string[], armyIds: readonly string[]): fc.Arbitrary<Army> => fc.tuple(ids(`${id}r`, 4), ids(`${id}i`, 3)).chain(([regIds, indIds]) => rec({
  id: fc.constant(id),
  name,
  commander: name,
  side: fc.constantFrom(...sides),
  hex,
  bank,
  movementClass: fc.constantFrom('infantry' as const, 'cavalry' as const, 'courier' as const, 'creature' as const),
  baseMovePoints: fc.integer({ min: 1, max: 96 }),
  flying: fc.boolean(),
  sight: fc.constantFrom('light' as const, 'dark' as const),
  nocturnal: fc.boolean(),
  homeTerrain: rec({ terrain: fc.constantFrom(...LAND_TERRAINS), region: name }, ['terrain']),
  tireless: fc.boolean(),
  warMachines: rec({
    state: fc.constantFrom('assembled' as const, 'disassembled' as const),
    changing: fc.record({ to: fc.constantFrom('assembled' as const, 'disassembled' as const), readyDay: fc.integer({ min: 1, max: 400 }) }),
  }, ['state']),
  divisionOf: fc.constantFrom(...armyIds),
  regiments: each(regIds, regiment),
  individuals: each(indIds, individual),
  scouts: fc.integer({ min: 0, max: 12 }),
  vessels: fc.dictionary(fc.constantFrom('galley', 'merchantman', 'barge', 'raft'), fc.integer({ min: 0, max: 30 }), { maxKeys: 3 }),
  armyPoints: fc.integer({ min: 0, max: 5000 }),
  formation: fc.constantFrom('formed' as const, 'unformed' as const),
  status: fc.record({ fatigued: fc.boolean(), inContact: fc.boolean(), inBattle: fc.boolean(), destroyed: fc.boolean(), embarked: fc.boolean() }),
  march,
  seat: rec({
    missed: fc.integer({ min: 0, max: 60 }), acted: fc.boolean(), standing: fc.boolean(), offer: fc.integer({ min: 1, max: 1_000_000 }),
    substitute: fc.record({ userId: word, since: fc.integer({ min: 0, max: 800 }), previous: fc.array(fc.record({ userId: word, name: word }), { maxLength: 2 }) }),
    awayUntil: fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }).map((s) => new Date(s * 1000).toISOString()),
  }, ['missed']),
}, ['id', 'name', 'commander', 'side', 'hex', 'movementClass', 'sight', 'nocturnal', 'regiments', 'individuals', 'scouts', 'vessels', 'formation', 'status', 'march']));

const given = (armyId: string) => ({ armyId: fc.constant(armyId), givenBy: word, givenAt: gameTime });
const order = (armyId: string): fc.Arbitrary<Order> => fc.oneof(
  rec({
    ...given(armyId),
    kind: fc.constant('move' as const),
    period: fc.constantFrom('day' as const, 'night' as const, 'split' as const),
    path: fc.array(hex, { maxLength: 6 }),
    forced: fc.boolean(),
    unformed: fc.boolean(),
    save: fc.boolean(),
    crossAtEnd: fc.boolean(),
    crossings: fc.array(fc.record({ hex, method: fc.constantFrom('ferry' as const, 'rafts' as const) }), { maxLength: 2 }),
  }, ['armyId', 'givenBy', 'givenAt', 'kind', 'period', 'path', 'forced', 'unformed', 'save']),
  fc.record({ ...given(armyId), kind: fc.constant('rest' as const) }),
  fc.record({
    ...given(armyId),
    kind: fc.constant('sail' as const),
    path: fc.array(hex, { maxLength: 6 }),
    fleet: fc.record({
      vessels: fc.dictionary(fc.constantFrom('galley', 'merchantman', 'barge'), fc.integer({ min: 0, max: 30 }), { maxKeys: 3 }),
      regiments: fc.array(word, { maxLength: 3 }),
      ashore: fc.array(word, { maxLength: 2 }),
      embarkedFrom: fc.constantFrom('0101', '1207', '104099'),
      embarkedAt: small,
      escortLost: fc.boolean(),
      carry: points,
      carryDay: small,
    }),
  }),
  fc.record({ ...given(armyId), kind: fc.constant('debark' as const), assembly: fc.record({ port: fc.constantFrom('0101', '1207'), batches: fc.array(blob, { maxLength: 2 }) }) }),
) as fc.Arbitrary<Order>;

/** What an observer estimated of a target in a contact (src/engine/contact/estimate.ts), the optional parts present or not. */
const estimate = (observerId: string, targetId: string): fc.Arbitrary<unknown> => rec({
  observerId: fc.constant(observerId),
  targetId: fc.constant(targetId),
  modifiedDie: fc.integer({ min: -3, max: 9 }),
  awareness: fc.constantFrom('unaware', 'aware', 'estimate'),
  sizeBand: fc.constantFrom('none', 'pm50', 'pm25', 'pm10', 'accurate'),
  compositionLevel: fc.constantFrom('none', 'basic', 'types', 'proportions', 'exact'),
  sizeRoll: fc.integer({ min: 2, max: 12 }),
  sizeErrorPercent: fc.integer({ min: -50, max: 50 }),
  estimatedFigures: small,
  estimatedTroops: fc.integer({ min: 0, max: 4000 }),
  composition: rec({ basic: fc.subarray(['infantry', 'cavalry']), troopTypes: fc.array(name, { maxLength: 2 }), otherRegiments: small }, ['basic']),
}, ['observerId', 'targetId', 'modifiedDie', 'awareness', 'sizeBand', 'compositionLevel']);

/** estimates[observer][target], each keyed as it names itself. */
const estimates = (armyIds: readonly string[]): fc.Arbitrary<unknown> => fc.subarray([...armyIds], { maxLength: Math.min(2, armyIds.length) }).chain((observers) =>
  each(observers, (o) => fc.subarray([...armyIds], { maxLength: Math.min(2, armyIds.length) }).chain((targets) => each(targets, (t) => estimate(o, t)).map((l) => [o, Object.fromEntries(l.map((e, i) => [targets[i], e]))] as const)))
    .map((l) => Object.fromEntries(l)));

const contact = (id: string, armyIds: readonly string[]): fc.Arbitrary<ContactRecord> => rec({
  id: fc.constant(id),
  armyIds: fc.subarray([...armyIds]),
  hexes: fc.array(hex, { minLength: 1, maxLength: 3 }),
  openedAt: gameTime,
  step: fc.constantFrom('step1' as const, 'decision' as const, 'battle' as const, 'closed' as const),
  data: rec({
    stepAt: small,
    wait: fc.record({ step: fc.constantFrom('step1' as const, 'decision' as const), ticks: fc.integer({ min: 0, max: 8 }) }),
    step1: fc.dictionary(fc.constantFrom(...armyIds), fc.oneof(fc.constant({ kind: 'proceed' as const }), fc.constant({ kind: 'silent' as const }), fc.record({ kind: fc.constant('avoid' as const), to: hex }))),
    decisions: fc.dictionary(fc.constantFrom(...armyIds), fc.constantFrom('engage' as const, 'evade' as const)),
    contactDice: fc.dictionary(fc.constantFrom(...armyIds), fc.record({ raw: fc.integer({ min: 1, max: 6 }), modifiers: fc.constant([]), modified: fc.integer({ min: -3, max: 9 }) })),
    contactHour: fc.integer({ min: 1, max: 24 }),
    estimates: estimates(armyIds),
    terrain: fc.array(blob, { maxLength: 3 }),
    conditions: blob,
    deployment: blob,
    tabletop: blob,
    outcome: fc.constantFrom('fightOnMorrow' as const, 'disengaged' as const, 'bothEvaded' as const, 'evaded' as const, 'battle' as const, 'split' as const),
    quietUntil: small,
    halfSpent: fc.dictionary(fc.constantFrom(...armyIds), small),
    supports: fc.dictionary(fc.constantFrom(...armyIds), fc.constantFrom(...armyIds)),
    withdrawals: fc.dictionary(fc.constantFrom(...armyIds), fc.constantFrom('formed' as const, 'retreat' as const, 'rout' as const)),
    previousRound: fc.record({ at: small, armyIds: fc.subarray([...armyIds]) }),
  }, []),
}, ['id', 'armyIds', 'hexes', 'openedAt', 'step', 'data']);

const courier = (id: string, armyIds: readonly string[], sides: readonly string[]): fc.Arbitrary<CourierRecord> => fc.record({
  id: fc.constant(id),
  fromArmy: fc.constantFrom(...armyIds),
  toArmy: fc.constantFrom(...armyIds),
  side: fc.constantFrom(...sides),
  hex,
  message: name,
  sentAt: gameTime,
  status: fc.constantFrom('travelling' as const, 'delivered' as const, 'captured' as const),
  data: rec({
    horse: fc.boolean(),
    night: fc.boolean(),
    carry: points,
    bank,
    aboard: fc.constantFrom(...armyIds),
    expectedBy: small,
    senderTold: fc.boolean(),
    capturedBy: fc.constantFrom(...armyIds),
    receivedAt: gameTime,
    safeAt: word,
    trail: fc.array(fc.constantFrom('0101', '0203', '110110'), { maxLength: 4 }),
    waiting: fc.boolean(),
    crossing: rec({ hex: fc.constantFrom('0101', '0203'), until: small, bank }, ['hex', 'until']),
    seek: hex,
  }, ['horse', 'night', 'carry', 'expectedBy', 'trail']),
});

const sightings = (armyIds: readonly string[]): fc.Arbitrary<Sightings> =>
  fc.dictionary(fc.constantFrom(...armyIds), rec({ hex, at: gameTime, how: fc.constantFrom('public' as const, 'contact' as const, 'courier' as const), from: fc.constantFrom(...armyIds) }, ['hex', 'at', 'how']));

const manualDice = (armyIds: readonly string[], contactIds: readonly string[]): fc.Arbitrary<ManualDiceState> => fc.record({
  nextId: fc.integer({ min: 1, max: 500 }),
  requests: fc.array(rec({
    id: word,
    key: word,
    purpose: name,
    sides: fc.constantFrom(6, 8, 10, 12, 20),
    army: fc.constantFrom(...armyIds),
    contactId: contactIds.length > 0 ? fc.constantFrom(...contactIds) : word,
    askedAt: gameTime,
    value: fc.integer({ min: 1, max: 20 }),
    enteredBy: word,
  }, ['id', 'key', 'purpose', 'sides', 'askedAt']), { maxLength: 4 }),
  holds: contactIds.length > 0
    ? fc.dictionary(fc.constantFrom(...contactIds), fc.record({ step: fc.constantFrom('step1' as const, 'decision' as const), until: small }))
    : fc.constant({}),
});

const settings: fc.Arbitrary<CampaignSettings> = fc.record({
  tableWidth: fc.integer({ min: 57, max: 480 }).map((n) => n / 2),
  bowShare: fc.double({ min: 0.01, max: 0.49, noNaN: true }),
}).chain(({ tableWidth, bowShare }) => rec({
  cadence: fc.constantFrom('0 8,20 * * *', '*/30 * * * *', '0 6 * * 1-5'),
  timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'),
  reminderLeadMinutes: fc.integer({ min: 0, max: 24 * 60 }),
  catchUp: fc.constantFrom('all' as const, 'one' as const, 'none' as const),
  catchUpCap: fc.integer({ min: 1, max: 48 }),
  refereeRoleId: fc.integer({ min: 1e8, max: 2e9 }).map((n) => `1${n}${n}`.slice(0, 18)),
  tableWidth: fc.constant(tableWidth),
  shortBowRange: fc.constant(Math.min(60, Math.max(1, Math.floor(tableWidth * bowShare * 2) / 2))),
  drought: fc.boolean(),
  advancedEmbarkation: fc.boolean(),
  flyingIgnoresTerrain: fc.boolean(),
  unformedAsRetreat: fc.boolean(),
  nocturnalDayMarch: fc.boolean(),
  passageOfLines: fc.boolean(),
  defaultOrder: fc.constantFrom('hold' as const, 'rest' as const),
  decisionDeadlineTicks: fc.integer({ min: 1, max: 8 }),
  undoDepth: fc.integer({ min: 1, max: 50 }),
  manualDice: fc.constantFrom(...MANUAL_DICE_GROUPS),
  positions: fc.constantFrom('public' as const, 'fog' as const),
  commanderBooks: fc.boolean(),
  profile: fc.constantFrom(...MOVEMENT_PROFILE_IDS),
  tactical: fc.constantFrom(...TACTICAL_PROFILE_IDS),
  brigadesPerRegiment: fc.integer({ min: 1, max: 80 }).map((n) => n / 4),
  commanderDivisions: fc.boolean(),
  temperature: fc.constantFrom(...TEMPERATURES),
  marchAttrition: fc.boolean(),
  terrainCosts: fc.dictionary(fc.constantFrom(...LAND_TERRAINS), fc.integer({ min: 1, max: 60 }), { minKeys: 1 }),
  earlyTickGapMinutes: fc.integer({ min: 0, max: 60 }),
  absentAfterHalves: fc.integer({ min: 0, max: 56 }),
  quietHours: fc.constantFrom('22:00-07:00', '00:00-06:00'),
  spectatorDelay: fc.integer({ min: 0, max: 400 }),
}, ['earlyTickGapMinutes', 'absentAfterHalves', 'cadence', 'timezone', 'reminderLeadMinutes', 'catchUp', 'catchUpCap', 'tableWidth', 'shortBowRange', 'drought', 'advancedEmbarkation',
  'flyingIgnoresTerrain', 'unformedAsRetreat', 'nocturnalDayMarch', 'passageOfLines', 'defaultOrder', 'decisionDeadlineTicks', 'undoDepth', 'manualDice',
  'positions', 'commanderBooks', 'profile', 'tactical', 'brigadesPerRegiment', 'commanderDivisions', 'temperature', 'marchAttrition']));

const weather: fc.Arbitrary<WeatherState> = fc.record({
  sky: fc.constantFrom('clear' as const, 'cloudy' as const, 'lightRain' as const, 'hardRain' as const),
  fog: fc.boolean(),
  wind: fc.constantFrom('none' as const, 'calm' as const, 'highWinds' as const, 'gale' as const),
  rainLevel: fc.integer({ min: 0, max: 6 }),
  track: fc.dictionary(word, fc.oneof(fc.integer({ min: 0, max: 30 }), fc.boolean(), word), { maxKeys: 3 }),
});

const hex32 = fc.tuple(hexDigits(8), hexDigits(8), hexDigits(8), hexDigits(8)).map((p) => p.join(''));

/** The same value built of plain objects (fast-check makes some without a prototype; the engine's are plain). */
function plain<T>(x: T): T {
  if (Array.isArray(x)) return x.map(plain) as T;
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)])) as T;
  return x;
}

/** A plan of every kind, with its bookkeeping present or absent. */
const planOrder = (armyIds: readonly string[]): fc.Arbitrary<PlanOrder> => fc.oneof(
  fc.constant({ kind: 'hold' as const }),
  fc.record({ kind: fc.constant('march' as const), to: hex }),
  fc.record({ kind: fc.constant('patrol' as const), points: fc.array(hex, { minLength: 2, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('shadow' as const), target: fc.constantFrom(...armyIds) }),
  fc.record({ kind: fc.constant('withdraw' as const), to: hex }),
  fc.record({ kind: fc.constant('garrison' as const), town: hex }),
);
const plan = (armyId: string, armyIds: readonly string[]): fc.Arbitrary<ArmyPlan> => rec({
  armyId: fc.constant(armyId),
  order: planOrder(armyIds),
  contact: fc.constantFrom('evade' as const, 'delay' as const, 'referee' as const),
  setBy: fc.oneof(fc.constant('scenario'), word),
  setAt: gameTime,
  standing: fc.boolean(),
  leg: fc.integer({ min: 0, max: 7 }),
  fellBack: fc.boolean(),
  estimates: fc.dictionary(fc.constantFrom(...armyIds), fc.record({ figures: fc.integer({ min: 0, max: 400 }), at: fc.integer({ min: 0, max: 1600 }) }), { maxKeys: 3 }),
  last: word,
}, ['armyId', 'order', 'contact', 'setBy', 'setAt']);

/** A campaign state (id `c`: the caller gives each its own in one database). */
export function campaignState(): fc.Arbitrary<CampaignState> {
  return fc.record({
    sideIds: fc.uniqueArray(fc.constantFrom('law', 'chaos', 'elves', 'sea-folk'), { minLength: 1, maxLength: 4 }),
    armyIds: ids('a', 5).map((l) => (l.length === 0 ? ['a1'] : l)),
    contactIds: readIds('c', 3),
    courierIds: readIds('k', 2),
  }).chain(({ sideIds, armyIds, contactIds, courierIds }) => fc.record({
    id: fc.constant('c'),
    name,
    scenarioId: fc.constantFrom('valormr', 'acks-004', 'tactical-002'),
    season: fc.constantFrom('', 'spring', 'summer', 'autumn', 'winter'),
    status: fc.constantFrom('setup' as const, 'running' as const, 'paused' as const, 'ended' as const),
    settings,
    clock: gameTime,
    sides: each(sideIds, (s) => fc.record({ id: fc.constant(s), name, colour: hexDigits(6).map((h) => `#${h}`), hostileTo: fc.subarray(sideIds.filter((o) => o !== s)) }))
      .map((l) => Object.fromEntries(l.map((s) => [s.id, s]))),
    armies: each(armyIds, (a) => army(a, sideIds, armyIds)).map((l) => Object.fromEntries(l.map((a) => [a.id, a]))),
    orders: fc.subarray(armyIds).chain((l) => each(l, order)).map((l) => Object.fromEntries(l.map((o) => [o.armyId, o]))),
    weather,
    contacts: each(contactIds, (c) => contact(c, armyIds)).map((l) => Object.fromEntries(l.map((c) => [c.id, c]))),
    couriers: each(courierIds, (k) => courier(k, armyIds, sideIds)).map((l) => Object.fromEntries(l.map((c) => [c.id, c]))),
    rng: fc.record({ period: fc.integer({ min: 0, max: 400 }), seed: hex32, draws: fc.integer({ min: 0, max: 10_000 }), next: hex32 }),
    manualDice: manualDice(armyIds, contactIds),
    knowledge: fc.record({
      armies: fc.dictionary(fc.constantFrom(...armyIds), sightings(armyIds)),
      reports: courierIds.length > 0 ? fc.dictionary(fc.constantFrom(...courierIds), sightings(armyIds)) : fc.constant({}),
    }) as fc.Arbitrary<KnowledgeState>,
    nextId: fc.integer({ min: 1, max: 500 }),
    nextCourierId: fc.integer({ min: 1, max: 500 }),
    plans: fc.subarray(armyIds).chain((l) => each(l, (a) => plan(a, armyIds))).map((l) => Object.fromEntries(l.map((p) => [p.armyId, p]))),
  })).map(plain);
}
