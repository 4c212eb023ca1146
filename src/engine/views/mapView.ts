import { nextHalf, type GameTime } from '../clock/index.js';
import { type Army, regimentFigures } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import { isFog } from '../knowledge/index.js';
import type { CampaignState, MovePeriod, WeatherState } from '../state/index.js';
import { fogPlacements, type TokenSeen } from './knowledgeView.js';

/**
 * What a map picture may show, as plain data. The renderer only ever receives one of these, never
 * a CampaignState: the view functions below are the single place that decides what each viewer
 * sees.
 * @see RULINGS 6 Secrets (positions are public; composition and strength are not)
 */

/** Public facts about an army on the strategic map. */
export interface TokenFlags {
  readonly inContact: boolean;
  readonly inBattle: boolean;
  readonly unformed: boolean;
  readonly fatigued: boolean;
  readonly embarked: boolean;
}

export interface MapToken {
  readonly armyId: string;
  /** Short label drawn under the token: the commander's name. */
  readonly label: string;
  /** The army's name. */
  readonly name: string;
  readonly sideId: string;
  readonly sideName: string;
  /** `#rrggbb` */
  readonly colour: string;
  readonly hex: Hex;
  readonly flags: TokenFlags;
  /** Commander view only: one of the viewer's own armies. */
  readonly own?: boolean;
  /** Commander view only, own armies only: current troop figures as a % of the original. */
  readonly strengthPct?: number;
  /** Commander view only, other armies only: the viewer's private estimate, always starting "est.". */
  readonly estimate?: string;
  /** Commander view in fog of war, other sides' armies only: how the viewer knows this position, and how old it is. */
  readonly seen?: TokenSeen;
}

/** One step of an ordered march: the hex entered and the half period it is entered in. */
export interface PathStep {
  readonly hex: Hex;
  readonly time: GameTime;
  /** Short tag for the map, e.g. "D2 Aft". */
  readonly label: string;
}

export interface OrderedPath {
  readonly armyId: string;
  readonly from: Hex;
  readonly steps: readonly PathStep[];
}

/** One of the viewer's own couriers on the map (no message text). */
export interface CourierMark {
  readonly id: string;
  readonly hex: Hex;
  readonly colour: string;
  /** Label of the army it is carrying a message to. */
  readonly toLabel: string;
}

export interface MapView {
  readonly kind: 'public' | 'commander';
  readonly time: GameTime;
  /** The weather everyone sees (no rules bookkeeping). */
  readonly weather: Pick<WeatherState, 'sky' | 'fog' | 'wind'>;
  readonly tokens: readonly MapToken[];
  readonly paths: readonly OrderedPath[];
  readonly couriers: readonly CourierMark[];
}

/** A private estimate of another army, as the contact rules hand it to the viewer. */
export interface ArmyEstimate {
  readonly armyId: string;
  /** e.g. "about 1,200 foot and horse"; the view adds "est." when missing. */
  readonly text: string;
}

function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The map line for a contact estimate (the contact rules' Estimate, read structurally): the
 * estimated troops when there are some, else what the viewer knows of the enemy's presence. The
 * size estimated is the engaging regiment's (001 Size Estimation), not the army's: the line says so
 * unless the estimate also counted the regiments besides it (composition at proportions and up),
 * then it adds them ("+2 regts") or, with none, stands for the whole army. An accurate estimate
 * (the contact table's accurate size row, which its commander's DM names) drops the "~".
 */
export function estimateFromContact(e: {
  readonly targetId: string;
  readonly awareness: string;
  readonly sizeBand?: string;
  readonly estimatedTroops?: number;
  readonly composition?: { readonly otherRegiments?: number };
}): ArmyEstimate {
  if (e.estimatedTroops === undefined) return { armyId: e.targetId, text: e.awareness === 'unaware' ? 'est. unknown' : 'est. strength unknown' };
  const size = `est. ${e.sizeBand === 'accurate' ? '' : '~'}${thousands(e.estimatedTroops)} troops`;
  const others = e.composition?.otherRegiments;
  if (others === undefined) return { armyId: e.targetId, text: `${size} engaging` };
  return { armyId: e.targetId, text: others === 0 ? size : `${size} +${others} regt${others === 1 ? '' : 's'}` };
}

/** What the viewer knows privately, passed in by the caller (the contact rules own its source). */
export interface CommanderKnowledge {
  readonly estimates?: readonly ArmyEstimate[];
  /** Exact half period of each step per army, when the movement rules supply it. */
  readonly stepTimes?: Readonly<Record<string, readonly GameTime[]>>;
}

const HALF_TAGS = ['Mor', 'Aft', 'Eve', 'Ngt'] as const;

/** "D2 Aft": the compact tag for a half period, as drawn along ordered paths. */
export function halfPeriodTag(t: GameTime): string {
  return `D${t.day} ${HALF_TAGS[t.half]}`;
}

const TITLES = [
  'dwarf high king', 'high king', 'burrow-warden', 'lord', 'lady', 'king', 'queen', 'prince', 'princess',
  'jarl', 'chief', 'reeve', 'thane', 'sir', 'dame', 'captain', 'general',
];

/**
 * A short map label for a commander: the name without epithets and titles ("Mordred, Thane of
 * Gyrhawk Hold" -> "Mordred", "Lord Caelanthir of Groennendr" -> "Caelanthir"), falling back to
 * the full name when nothing but a title would be left.
 */
export function shortCommanderLabel(name: string): string {
  const full = name.trim().replace(/\s+/g, ' ');
  let s = full.split(',')[0]?.trim() ?? full;
  const cut = (sep: RegExp): void => {
    const m = sep.exec(s);
    if (m && m.index > 0) s = s.slice(0, m.index).trim();
  };
  cut(/ of /i);
  cut(/ the /i);
  let changed = true;
  while (changed) {
    changed = false;
    for (const t of TITLES) {
      if (s.toLowerCase().startsWith(`${t} `) && s.length > t.length + 1) {
        s = s.slice(t.length + 1).trim();
        changed = true;
      }
    }
  }
  if (s.length === 0 || TITLES.includes(s.toLowerCase().replace(/^the /, ''))) {
    s = full.replace(/^the /i, '');
    s = s.charAt(0).toUpperCase() + s.slice(1);
  }
  return s;
}

/** Short labels for every army, falling back to the full name where two would read the same. */
/** Short labels already worked out, by commander name (a pure function of the name; every map view labels every army). */
const shortLabels = new Map<string, string>();

function shortLabelOf(commander: string): string {
  let label = shortLabels.get(commander);
  if (label === undefined) {
    if (shortLabels.size >= 10_000) shortLabels.clear();
    label = shortCommanderLabel(commander);
    shortLabels.set(commander, label);
  }
  return label;
}

function labelsFor(armies: readonly Army[]): Map<string, string> {
  const short = new Map(armies.map((a) => [a.id, shortLabelOf(a.commander)]));
  const count = new Map<string, number>();
  for (const v of short.values()) count.set(v, (count.get(v) ?? 0) + 1);
  for (const a of armies) if ((count.get(short.get(a.id) ?? '') ?? 0) > 1) short.set(a.id, a.commander);
  return short;
}

function publicToken(state: CampaignState, a: Army, label: string): MapToken {
  const side = state.sides[a.side];
  // Only public fields are copied: never regiments, figures, individuals, vessels or points.
  return {
    armyId: a.id,
    label,
    name: a.name,
    sideId: a.side,
    sideName: side?.name ?? a.side,
    colour: side?.colour ?? '#777777',
    hex: { q: a.hex.q, r: a.hex.r },
    flags: {
      inContact: a.status.inContact,
      inBattle: a.status.inBattle,
      unformed: a.formation === 'unformed',
      fatigued: a.status.fatigued,
      embarked: a.status.embarked,
    },
  };
}

const NO_FLAGS: TokenFlags = { inContact: false, inBattle: false, unformed: false, fatigued: false, embarked: false };

function sortedArmies(state: CampaignState): Army[] {
  return Object.values(state.armies).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

function liveArmies(state: CampaignState): Army[] {
  return sortedArmies(state).filter((a) => !a.status.destroyed);
}

/**
 * The public map: where every commander stands and the public flags. Carries no figures,
 * strengths, compositions, orders or couriers. In fog of war it carries no army at all: the land,
 * the time and the weather.
 * @see RULINGS 6 Secrets; docs/rulings.md (Fog of war)
 */
export function publicMapView(state: CampaignState): MapView {
  const all = everyPositionView(state);
  return isFog(state) ? { ...all, tokens: [] } : all;
}

/**
 * The public map with every army where it stands, whatever the setting: what the map after a tick
 * shows with positions public, and what the referee's campaign book and time-lapse show.
 */
export function everyPositionView(state: CampaignState): MapView {
  const armies = liveArmies(state);
  const labels = labelsFor(armies);
  return {
    kind: 'public',
    time: state.clock,
    weather: publicWeather(state.weather),
    tokens: armies.map((a) => publicToken(state, a, labels.get(a.id) ?? a.commander)),
    paths: [],
    couriers: [],
  };
}

function publicWeather(w: WeatherState): MapView['weather'] {
  return { sky: w.sky, fog: w.fog, wind: w.wind };
}

/** Whole-army strength: current troop figures as a % of the original figures. */
function armyStrengthPct(a: Army): number | undefined {
  const original = a.regiments.reduce((n, r) => n + r.originalFigures, 0);
  if (original <= 0) return undefined;
  return Math.round((a.regiments.reduce((n, r) => n + regimentFigures(r), 0) / original) * 100);
}

/** The half periods an order of this period can still use, from the current time on. */
function orderHalves(now: GameTime, period: MovePeriod): GameTime[] {
  const wanted = period === 'day' ? [0, 1] : period === 'night' ? [2, 3] : [0, 1, 2, 3];
  const out: GameTime[] = [];
  let t = now;
  // Walk forward (at most a day and a half) to the order's period, then take its remaining halves.
  for (let i = 0; i < 6 && out.length < 2; i++) {
    if (wanted.includes(t.half)) out.push(t);
    else if (out.length > 0) break;
    t = nextHalf(t);
  }
  return out.length > 0 ? out : [now];
}

/**
 * A simple schedule for an ordered path: the steps are shared out evenly, in order, over the half
 * periods the order can still use (the first half takes the odd step). The movement rules can
 * supply the exact half of each step instead (`CommanderKnowledge.stepTimes`).
 */
export function simpleStepTimes(now: GameTime, order: OrderedRoute): GameTime[] {
  const halves = orderHalves(now, order.period);
  const n = order.path.length;
  const out: GameTime[] = [];
  const per = Math.ceil(n / halves.length);
  for (let i = 0; i < n; i++) out.push(halves[Math.min(halves.length - 1, Math.floor(i / Math.max(1, per)))] ?? now);
  return out;
}

/** The hexes an army's standing order still has to go, and when it may go (a fleet sails day and night). */
interface OrderedRoute {
  readonly period: MovePeriod;
  readonly path: readonly Hex[];
}

function routeOf(state: CampaignState, armyId: string): OrderedRoute | undefined {
  const order = state.orders[armyId];
  if (order?.kind === 'move') return order;
  if (order?.kind === 'sail') return { period: 'split', path: order.path };
  return undefined;
}

function pathFor(state: CampaignState, army: Army, knowledge: CommanderKnowledge): OrderedPath | undefined {
  const order = routeOf(state, army.id);
  if (!order || order.path.length === 0) return undefined;
  const given = knowledge.stepTimes?.[army.id];
  const times = given && given.length === order.path.length ? [...given] : simpleStepTimes(state.clock, order);
  return {
    armyId: army.id,
    from: { q: army.hex.q, r: army.hex.r },
    steps: order.path.map((h, i) => {
      const time = times[i] ?? state.clock;
      return { hex: { q: h.q, r: h.r }, time, label: halfPeriodTag(time) };
    }),
  };
}

function estimateText(text: string): string {
  const t = text.trim();
  return /^est\./i.test(t) ? t : `est. ${t}`;
}

/**
 * One commander's map: the public map, plus for the viewer's own armies their strength % and
 * ordered path, plus what the viewer knows privately (estimates of contacted enemies, always
 * marked "est.", and the viewer's own couriers). Other armies' strengths never appear.
 * @see RULINGS 6 Secrets
 */
export function commanderMapView(state: CampaignState, armyIds: readonly string[], knowledge: CommanderKnowledge = {}): MapView {
  const mine = new Set(armyIds);
  const estimates = new Map((knowledge.estimates ?? []).filter((e) => !mine.has(e.armyId)).map((e) => [e.armyId, estimateText(e.text)]));
  const fog = isFog(state) ? fogPlacements(state, armyIds) : undefined;
  // In fog an army destroyed out of the viewer's sight still stands where they last knew it.
  const sides = new Set(armyIds.flatMap((id) => { const a = state.armies[id]; return a ? [a.side] : []; }));
  const kept = fog ? sortedArmies(state).filter((a) => !a.status.destroyed || (!mine.has(a.id) && !sides.has(a.side))) : liveArmies(state);
  // Only the armies the viewer is shown: an unseen army must not change a shown one's label (two
  // short labels that collide are written out in full, which would betray the unseen one).
  const armies = fog ? kept.filter((a) => mine.has(a.id) || fog.get(a.id) !== undefined) : kept;
  const labels = labelsFor(armies);
  const tokens = armies.flatMap((a): MapToken[] => {
    const base = publicToken(state, a, labels.get(a.id) ?? a.commander);
    if (mine.has(a.id)) {
      const pct = armyStrengthPct(a);
      return [pct === undefined ? { ...base, own: true } : { ...base, own: true, strengthPct: pct }];
    }
    const est = estimates.get(a.id);
    const known = est === undefined ? base : { ...base, estimate: est };
    const place = fog?.get(a.id);
    if (!fog || place === 'here') return [known];
    if (!place) return [];
    // Where the viewer last knew it; its flags only if seen now (an old sighting says nothing of today).
    return [{ ...known, hex: place.hex, seen: place.seen, ...(place.seen.ageHalves > 0 ? { flags: NO_FLAGS } : {}) }];
  });
  const paths = armies.filter((a) => mine.has(a.id)).flatMap((a) => {
    const p = pathFor(state, a, knowledge);
    return p ? [p] : [];
  });
  const labelOf = (id: string): string => labels.get(id) ?? state.armies[id]?.commander ?? id;
  // In fog a lone rider out of sight is nowhere the sender knows: its map does not draw it (docs/rulings.md, Couriers in fog).
  const couriers = Object.values(state.couriers)
    .filter((c) => !fog && c.status === 'travelling' && mine.has(c.fromArmy))
    .sort((x, y) => (x.id < y.id ? -1 : 1))
    .map((c): CourierMark => ({
      id: c.id,
      hex: { q: c.hex.q, r: c.hex.r },
      colour: state.sides[c.side]?.colour ?? '#777777',
      toLabel: labelOf(c.toArmy),
    }));
  return { kind: 'commander', time: state.clock, weather: publicWeather(state.weather), tokens, paths, couriers };
}
