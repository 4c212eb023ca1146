import { z } from 'zod';
import { MANUAL_DICE_GROUPS, type ManualDiceGroup } from '../dice/index.js';
import { LAND_TERRAINS, type LandTerrain, MOVEMENT_PROFILE_IDS, type MovementProfileId, TACTICAL_PROFILE_IDS, type TacticalProfileId } from '../profiles/index.js';

/**
 * Campaign settings: what a referee may reasonably want differently. Defaults follow RULINGS.md.
 * One zod schema describes every setting with its range: `/campaign settings` validates the
 * referee's changes with it (refusing what is out of range, with the option's name), and loading
 * a campaign reads stored settings through it (a missing or broken value takes its default, so a
 * campaign saved by an older version, or with a value an older version wrongly accepted, opens).
 */
export type CatchUpPolicy = 'all' | 'one' | 'none';

/**
 * The temperature of the season, the referee's to set (004 Effects of Severe Weather: frigid,
 * cold, moderate, sweltering). The weather rolls no temperature: the referee sets it as the
 * season turns, and the profile's weather rules read it (ACKS: frigid and sweltering halve speed).
 */
export const TEMPERATURES = ['frigid', 'cold', 'moderate', 'sweltering'] as const;
export type Temperature = (typeof TEMPERATURES)[number];

/** The limits of each numeric setting: also what refusals quote. */
export const SETTING_LIMITS = {
  reminderLeadMinutes: { min: 0, max: 24 * 60 },
  catchUpCap: { min: 1, max: 48 },
  tableWidth: { min: 28.5, max: 240 },
  shortBowRange: { min: 1, max: 60 },
  decisionDeadlineTicks: { min: 1, max: 8 },
  undoDepth: { min: 1, max: 50 },
  brigadesPerRegiment: { min: 0.25, max: 20 },
  terrainCost: { min: 1, max: 60 },
  earlyTickGapMinutes: { min: 0, max: 24 * 60 },
  absentAfterHalves: { min: 0, max: 56 },
  spectatorDelay: { min: 0, max: 400 },
} as const;

/** Numbers typed inside text options (`figures:"r1=14"`, `losses:"anax/r1=3"`): whole, and in these ranges. */
export const NUMBER_LIMITS = {
  figures: { min: 0, max: 10_000 },
} as const;

/** A whole number in a range: the one schema every number a command takes goes through (settings and text alike). */
export const wholeNumber = (min: number, max: number) => z.number().int().min(min).max(max);

/** Quiet hours as the referee writes them: `HH:MM-HH:MM` on a 24-hour clock, in the campaign's timezone. */
const QUIET_HOURS_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of the start and end of quiet hours (`HH:MM-HH:MM`), or undefined when unreadable. */
export function quietMinutes(text: string): { start: number; end: number } | undefined {
  const m = QUIET_HOURS_PATTERN.exec(text);
  if (!m) return undefined;
  return { start: Number(m[1]) * 60 + Number(m[2]), end: Number(m[3]) * 60 + Number(m[4]) };
}

/** Quiet hours must leave some of the day: a start equal to the end would cover all of it. */
const leavesTime = (text: string): boolean => {
  const q = quietMinutes(text);
  return q !== undefined && q.start !== q.end;
};

const L = SETTING_LIMITS;
const int = (k: keyof typeof L) => wholeNumber(L[k].min, L[k].max);
const num = (k: keyof typeof L) => z.number().finite().min(L[k].min).max(L[k].max);

/** The settings' fields, each with its type and range; defaults are added below. */
const fields = {
  /** Cron expression for ticks, in `timezone`. Default: two half periods a day. */
  cadence: z.string().trim().min(9).max(100),
  timezone: z.string().trim().min(1).max(64),
  /** Minutes before a deadline when commanders without orders get a reminder (0: none). */
  reminderLeadMinutes: int('reminderLeadMinutes'),
  /** After downtime: play every missed tick (up to `catchUpCap`), one, or none. */
  catchUp: z.enum(['all', 'one', 'none']),
  /** The most missed half periods `catchUp: all` plays by itself; past it the campaign pauses. @see RULINGS 8 */
  catchUpCap: int('catchUpCap'),
  /** Discord role whose members are co-referees. */
  refereeRoleId: z.string().trim().min(1).max(40).regex(/^[\w-]+$/).optional(),
  /** Tabletop width (inches) and short bow range (inches) for baselines. */
  tableWidth: num('tableWidth'),
  shortBowRange: num('shortBowRange'),
  /** Optional rules. */
  drought: z.boolean(),
  advancedEmbarkation: z.boolean(),
  /** Flying creatures pay clear cost everywhere and ignore rivers (house ruling). */
  flyingIgnoresTerrain: z.boolean(),
  /**
   * Unformed forces disengage as if in retreat (-1) and may be pursued aggressively (000: they
   * begin an engagement "as if in retreat"). Off: no formation modifier and no pursuit. @see RULINGS 5
   */
  unformedAsRetreat: z.boolean(),
  /** Goblins, kobolds and orcs may be given day (or split) marches; off, they march by night only (000). */
  nocturnalDayMarch: z.boolean(),
  /** Advanced passage of lines (000): a force may pass through, not stop on, a hex held by a stationary ally. */
  passageOfLines: z.boolean(),
  /** Missed orders: what an army without orders does. */
  defaultOrder: z.enum(['hold', 'rest']),
  /**
   * Ticks a contact waits for its commanders' answers before the defaults apply (step 1: silent;
   * engage or evade: engage). 1 = the next tick. @see RULINGS 5
   */
  decisionDeadlineTicks: int('decisionDeadlineTicks'),
  /** How many played half periods `/turn undo` can take back. */
  undoDepth: int('undoDepth'),
  /** Which rolls people make by hand (the bot asks them; the seeded die stands in at the deadline). @see RULINGS 7 */
  manualDice: z.enum(MANUAL_DICE_GROUPS as [ManualDiceGroup, ...ManualDiceGroup[]]),
  /** Army positions: public (Valormr: moves are overt) or fog of war (each commander sees what their armies know). @see RULINGS 6 */
  positions: z.enum(['public', 'fog']),
  /** Commanders may export their own campaign book before the campaign ends. */
  commanderBooks: z.boolean(),
  /** The movement profile: Valormr (000, default) or ACKS army movement (004). @see src/engine/profiles */
  profile: z.enum(MOVEMENT_PROFILE_IDS),
  /** The tabletop the battles are fought on: Valormr (001, default), the 002 chapter, or Fantasy Warlord (003). */
  tactical: z.enum(TACTICAL_PROFILE_IDS),
  /** Large armies (ACKS): brigades each regiment counts for. */
  brigadesPerRegiment: num('brigadesPerRegiment'),
  /** Divisions (ACKS): commanders may split and merge their own armies, not only the referee. */
  commanderDivisions: z.boolean(),
  /** The season's temperature (004), set by the referee; read by the profile's weather rules. */
  temperature: z.enum(TEMPERATURES),
  /**
   * 002's forced-march attrition and exhaustion check for a force that force-marched on the
   * campaign map that day or is fatigued (off: the chapter's rule is for forced marches on the
   * table only, as it says).
   */
  marchAttrition: z.boolean(),
  /** The referee's terrain costs, replacing the profile's (ACKS prints none but the road's). */
  terrainCosts: z.partialRecord(z.enum(LAND_TERRAINS as [LandTerrain, ...LandTerrain[]]), int('terrainCost')).optional(),
  /**
   * Early ticks: when every active commander is ready (`/ready`), the tick is played at once, but
   * never sooner than this many minutes after the last one. 0: off (ticks wait for the clock).
   */
  earlyTickGapMinutes: int('earlyTickGapMinutes'),
  /** Absence: after this many half periods in a row without orders or answers, a commander's armies are under standing orders (0: never). */
  absentAfterHalves: int('absentAfterHalves'),
  /** Quiet hours (`HH:MM-HH:MM`, the campaign's timezone): no tick or reminder falls inside them. */
  quietHours: z.string().trim().regex(QUIET_HOURS_PATTERN).refine(leavesTime).optional(),
  /**
   * The spectator page (the web page's public view): absent, off (the default); a number, on, showing
   * the public map and chronicle as they stood that many half periods before the latest.
   */
  spectatorDelay: int('spectatorDelay').optional(),
};

export interface CampaignSettings {
  readonly cadence: string;
  readonly timezone: string;
  readonly reminderLeadMinutes: number;
  readonly catchUp: CatchUpPolicy;
  readonly catchUpCap: number;
  readonly refereeRoleId?: string;
  readonly tableWidth: number;
  readonly shortBowRange: number;
  readonly drought: boolean;
  readonly advancedEmbarkation: boolean;
  readonly flyingIgnoresTerrain: boolean;
  readonly unformedAsRetreat: boolean;
  readonly nocturnalDayMarch: boolean;
  readonly passageOfLines: boolean;
  readonly defaultOrder: 'hold' | 'rest';
  readonly decisionDeadlineTicks: number;
  readonly undoDepth: number;
  readonly manualDice: ManualDiceGroup;
  readonly positions: 'public' | 'fog';
  readonly commanderBooks: boolean;
  readonly profile: MovementProfileId;
  readonly tactical: TacticalProfileId;
  readonly brigadesPerRegiment: number;
  readonly commanderDivisions: boolean;
  readonly temperature: Temperature;
  readonly marchAttrition: boolean;
  readonly terrainCosts?: Readonly<Partial<Record<LandTerrain, number>>>;
  readonly earlyTickGapMinutes: number;
  readonly absentAfterHalves: number;
  readonly quietHours?: string;
  readonly spectatorDelay?: number;
}

export const DEFAULT_SETTINGS: CampaignSettings = {
  cadence: '0 8,20 * * *',
  timezone: 'UTC',
  reminderLeadMinutes: 120,
  catchUp: 'all',
  catchUpCap: 4,
  tableWidth: 48,
  shortBowRange: 7.5,
  drought: false,
  advancedEmbarkation: false,
  flyingIgnoresTerrain: true,
  unformedAsRetreat: true,
  nocturnalDayMarch: false,
  passageOfLines: false,
  defaultOrder: 'rest',
  decisionDeadlineTicks: 1,
  undoDepth: 10,
  manualDice: 'none',
  positions: 'public',
  commanderBooks: false,
  profile: 'valormr',
  tactical: 'valormr',
  brigadesPerRegiment: 1,
  commanderDivisions: false,
  temperature: 'moderate',
  marchAttrition: false,
  earlyTickGapMinutes: 0,
  absentAfterHalves: 0,
};

/** The bow range must leave room on the table for the baselines. */
const bowFitsTable = (s: Pick<CampaignSettings, 'tableWidth' | 'shortBowRange'>): boolean => s.shortBowRange < s.tableWidth / 2;

/** A complete, valid set of settings (what `/campaign settings` produces after applying a change). */
const settingsSchema = z.object(fields).strict().refine(bowFitsTable, { message: 'the short bow range must be less than half the table width', path: ['shortBowRange'] });

/** Stored settings: each field that is missing or out of range falls back to its default. */
const storedSchema = z.object({
  cadence: fields.cadence.catch(DEFAULT_SETTINGS.cadence),
  timezone: fields.timezone.catch(DEFAULT_SETTINGS.timezone),
  reminderLeadMinutes: fields.reminderLeadMinutes.catch(DEFAULT_SETTINGS.reminderLeadMinutes),
  catchUp: fields.catchUp.catch(DEFAULT_SETTINGS.catchUp),
  catchUpCap: fields.catchUpCap.catch(DEFAULT_SETTINGS.catchUpCap),
  refereeRoleId: fields.refereeRoleId.catch(undefined),
  tableWidth: fields.tableWidth.catch(DEFAULT_SETTINGS.tableWidth),
  shortBowRange: fields.shortBowRange.catch(DEFAULT_SETTINGS.shortBowRange),
  drought: fields.drought.catch(DEFAULT_SETTINGS.drought),
  advancedEmbarkation: fields.advancedEmbarkation.catch(DEFAULT_SETTINGS.advancedEmbarkation),
  flyingIgnoresTerrain: fields.flyingIgnoresTerrain.catch(DEFAULT_SETTINGS.flyingIgnoresTerrain),
  unformedAsRetreat: fields.unformedAsRetreat.catch(DEFAULT_SETTINGS.unformedAsRetreat),
  nocturnalDayMarch: fields.nocturnalDayMarch.catch(DEFAULT_SETTINGS.nocturnalDayMarch),
  passageOfLines: fields.passageOfLines.catch(DEFAULT_SETTINGS.passageOfLines),
  defaultOrder: fields.defaultOrder.catch(DEFAULT_SETTINGS.defaultOrder),
  decisionDeadlineTicks: fields.decisionDeadlineTicks.catch(DEFAULT_SETTINGS.decisionDeadlineTicks),
  undoDepth: fields.undoDepth.catch(DEFAULT_SETTINGS.undoDepth),
  manualDice: fields.manualDice.catch(DEFAULT_SETTINGS.manualDice),
  positions: fields.positions.catch(DEFAULT_SETTINGS.positions),
  commanderBooks: fields.commanderBooks.catch(DEFAULT_SETTINGS.commanderBooks),
  profile: fields.profile.catch(DEFAULT_SETTINGS.profile),
  tactical: fields.tactical.catch(DEFAULT_SETTINGS.tactical),
  brigadesPerRegiment: fields.brigadesPerRegiment.catch(DEFAULT_SETTINGS.brigadesPerRegiment),
  commanderDivisions: fields.commanderDivisions.catch(DEFAULT_SETTINGS.commanderDivisions),
  temperature: fields.temperature.catch(DEFAULT_SETTINGS.temperature),
  marchAttrition: fields.marchAttrition.catch(DEFAULT_SETTINGS.marchAttrition),
  terrainCosts: fields.terrainCosts.catch(undefined),
  earlyTickGapMinutes: fields.earlyTickGapMinutes.catch(DEFAULT_SETTINGS.earlyTickGapMinutes),
  absentAfterHalves: fields.absentAfterHalves.catch(DEFAULT_SETTINGS.absentAfterHalves),
  quietHours: fields.quietHours.catch(undefined),
  spectatorDelay: fields.spectatorDelay.catch(undefined),
}).catch(DEFAULT_SETTINGS);

/**
 * Reads stored settings: every field that is missing or out of range takes its default (and a
 * bow range that no longer fits the table takes the default range). Never throws.
 */
export function readSettings(stored: unknown): CampaignSettings {
  const { refereeRoleId, terrainCosts, quietHours, spectatorDelay, ...rest } = storedSchema.parse(stored ?? {});
  const settings: CampaignSettings = {
    ...rest, ...(refereeRoleId !== undefined ? { refereeRoleId } : {}), ...(terrainCosts !== undefined ? { terrainCosts } : {}), ...(quietHours !== undefined ? { quietHours } : {}),
    ...(spectatorDelay !== undefined ? { spectatorDelay } : {}),
  };
  return bowFitsTable(settings) ? settings : { ...settings, shortBowRange: DEFAULT_SETTINGS.shortBowRange };
}

/** Where a change to the settings goes wrong: the setting and a sentence on what it accepts. */
export interface SettingsProblem {
  readonly setting: keyof CampaignSettings;
  readonly message: string;
}

/** Validates a complete set of settings after a change; returns every problem found. */
export function checkSettings(candidate: CampaignSettings): SettingsProblem[] {
  const r = settingsSchema.safeParse(candidate);
  if (r.success) return [];
  return r.error.issues.map((i) => ({ setting: String(i.path[0] ?? 'cadence') as keyof CampaignSettings, message: i.message }));
}
