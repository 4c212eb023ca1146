import { echo, escapeName, PUBLIC } from '../../engine/events/index.js';
import { fogFalls } from '../../engine/knowledge/index.js';
import { LAND_TERRAINS, type LandTerrain, MOVEMENT_PROFILES, movementProfile, TACTICAL_PROFILES, tacticalProfile, unitMark } from '../../engine/profiles/index.js';
import { type CampaignSettings, checkSettings, DEFAULT_SETTINGS, SETTING_LIMITS, TEMPERATURES, type Temperature } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { checkCadence, deadlineControl, reminderTime, scheduleFromNow } from '../schedule.js';
import { inCampaign, readCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import { activeCommanders } from '../turn/markReady.js';
import { reminderSettings } from '../notices.js';
import { positionsSwitchPreview } from './positionsSwitch.js';

/**
 * A change to the settings, by setting (undefined: unchanged); text values are checked against the
 * schema. Terrain costs come as text: `forest=12, hill=12`, or `default` for the profile's own.
 */
export type SettingsInput = { readonly [K in Exclude<keyof CampaignSettings, 'terrainCosts' | 'spectatorDelay'>]?: (CampaignSettings[K] extends string ? string : CampaignSettings[K]) | undefined } & {
  readonly terrainCosts?: string | undefined;
  /** `off`, or the half periods the spectator page is behind. */
  readonly spectatorDelay?: string | undefined;
};

/** Each setting as the `/campaign settings` option that sets it, and how its value reads. */
const OPTION_OF: Readonly<Record<keyof CampaignSettings, string>> = {
  cadence: 'cadence',
  timezone: 'timezone',
  reminderLeadMinutes: 'reminder-lead',
  catchUp: 'catch-up',
  catchUpCap: 'catch-up-cap',
  refereeRoleId: 'referee-role',
  tableWidth: 'table-width',
  shortBowRange: 'bow-range',
  drought: 'drought',
  advancedEmbarkation: 'advanced-embarkation',
  flyingIgnoresTerrain: 'flying-ignores-terrain',
  unformedAsRetreat: 'unformed-as-retreat',
  nocturnalDayMarch: 'nocturnal-day-march',
  passageOfLines: 'passage-of-lines',
  defaultOrder: 'missed-orders',
  decisionDeadlineTicks: 'decision-deadline',
  undoDepth: 'undo-depth',
  manualDice: 'manual-dice',
  positions: 'positions',
  commanderBooks: 'commander-books',
  profile: 'profile',
  tactical: 'tactical',
  brigadesPerRegiment: 'brigades-per-regiment',
  commanderDivisions: 'commander-divisions',
  temperature: 'temperature',
  marchAttrition: 'march-attrition',
  terrainCosts: 'terrain-costs',
  earlyTickGapMinutes: 'early-tick',
  absentAfterHalves: 'absent-after',
  quietHours: 'quiet-hours',
  spectatorDelay: 'spectators',
};

/** What each setting accepts, for refusals. */
function accepted(setting: keyof CampaignSettings, current: CampaignSettings): string {
  const limits = (SETTING_LIMITS as Readonly<Record<string, { min: number; max: number } | undefined>>)[setting];
  if (setting === 'shortBowRange') return `a number of ${unitWord(current)} from ${SETTING_LIMITS.shortBowRange.min} up to less than half the table width (${current.tableWidth / 2}${markOf(current)})`;
  if (setting === 'terrainCosts') return `\`terrain=points\` pairs for ${LAND_TERRAINS.join(', ')} (whole points from ${SETTING_LIMITS.terrainCost.min} to ${SETTING_LIMITS.terrainCost.max}), e.g. \`forest=12, swamp=18\`, or \`default\``;
  if (setting === 'profile') return Object.values(MOVEMENT_PROFILES).map((p) => `\`${p.id}\` (${p.name}, ${p.source})`).join(' or ');
  if (setting === 'tactical') return Object.values(TACTICAL_PROFILES).map((p) => `\`${p.id}\` (${p.name})`).join(', ');
  if (setting === 'spectatorDelay') return `\`off\` (no spectator page, the default) or how many half periods the spectator page's public map and chronicle lag behind the campaign, from ${SETTING_LIMITS.spectatorDelay.min} to ${SETTING_LIMITS.spectatorDelay.max}, e.g. \`spectators:4\` (two days)`;
  if (limits) return `a number from ${limits.min} to ${limits.max}`;
  if (setting === 'catchUp') return '`all`, `one` or `none`';
  if (setting === 'defaultOrder') return '`rest` or `hold`';
  if (setting === 'refereeRoleId') return 'a role';
  if (setting === 'manualDice') return '`none`, `contact` (the commanders\' contact and deployment rolls), `battle` (every roll of contacts and battles) or `all`';
  if (setting === 'earlyTickGapMinutes') return `0 (off: ticks wait for the clock) or the fewest minutes between ticks when every commander is ready, up to ${SETTING_LIMITS.earlyTickGapMinutes.max}, e.g. \`early-tick:60\``;
  if (setting === 'quietHours') return 'a start and an end on the 24-hour clock of the campaign\'s timezone that leave some of the day free, e.g. `quiet-hours:22:00-07:00`, or `none`';
  if (setting === 'temperature') return `${TEMPERATURES.map((t) => `\`${t}\``).join(', ')} (the season's, as you judge it)`;
  if (setting === 'positions') return '`public` (every army\'s position is public) or `fog` (fog of war)';
  if (setting === 'cadence') return 'a 5-field cron expression (minute hour day month weekday) in the campaign\'s timezone, e.g. `cadence:"0 8,20 * * *"` (08:00 and 20:00) or `cadence:"0 */3 * * *"` (every 3 hours)';
  if (setting === 'timezone') return 'an IANA time zone name, e.g. `timezone:Europe/Berlin`, `timezone:America/New_York` or `timezone:UTC`';
  return 'a valid value';
}

const onOff = (b: boolean): string => (b ? 'on' : 'off');
/** The tabletop's unit as the settings read it: `"` for inches, ` cm` for centimetres. */
const markOf = (s: CampaignSettings): string => unitMark(tacticalProfile(s).unit);
const unitWord = (s: CampaignSettings): string => (tacticalProfile(s).unit === 'cm' ? 'centimetres' : 'inches');

/** The profile's own settings, shown only where the profile reads them. */
function profileParts(s: CampaignSettings): string[] {
  const p = movementProfile(s);
  const costs = s.terrainCosts ? Object.entries(s.terrainCosts).map(([t, n]) => `${t}=${n}`).join(', ') : 'the profile\'s';
  return [
    `profile ${p.id} (${p.name})`,
    ...(p.size ? [`brigades-per-regiment ${s.brigadesPerRegiment}`] : []),
    ...(p.divisions ? [`commander-divisions ${onOff(s.commanderDivisions)}`] : []),
    ...(p.weather.temperature ? [`temperature ${s.temperature}`] : []),
    ...(s.terrainCosts || p.id !== DEFAULT_SETTINGS.profile ? [`terrain-costs ${costs}`] : []),
    `tactical ${tacticalProfile(s).id} (${tacticalProfile(s).name})`,
    ...(tacticalProfile(s).forcedMarch ? [`march-attrition ${onOff(s.marchAttrition)}`] : []),
  ];
}

/**
 * The settings just changed that the campaign's movement profile does not read: said, never
 * silently kept (they take effect if the profile changes to one with the rule).
 */
function idleUnder(s: CampaignSettings, changed: readonly (keyof CampaignSettings)[]): string {
  const p = movementProfile(s);
  const idle = [
    ...(changed.includes('brigadesPerRegiment') && !p.size ? [`\`brigades-per-regiment\` has no effect under the ${p.name} profile (it has no large-army rule)`] : []),
    ...(changed.includes('commanderDivisions') && !p.divisions ? [`\`commander-divisions\` has no effect under the ${p.name} profile (it has no divisions)`] : []),
    ...(changed.includes('temperature') && !p.weather.temperature ? [`\`temperature\` has no effect under the ${p.name} profile (its weather has no temperature rule)`] : []),
  ];
  const table = changed.includes('marchAttrition') && !tacticalProfile(s).forcedMarch ? ` \`march-attrition\` has no effect at the ${tacticalProfile(s).name} table (it has no forced-march attrition): kept for \`tactical:chapter002\`.` : '';
  return `${idle.length > 0 ? ` ${idle.join('; ')}: kept for a profile that has it (\`profile:acks\`).` : ''}${table}`;
}

/** What the season's temperature does to the march under the profile, in words (nothing where the profile ignores it: `idleUnder` says so). */
function temperatureWords(s: CampaignSettings): string {
  const factor = movementProfile(s).weather.temperature;
  if (!factor) return '';
  const t: Temperature = s.temperature;
  const f = factor[t];
  return f !== undefined && f < 1
    ? ` The temperature is ${t}: every army's daily march is ${f === 0.5 ? 'halved' : `cut to ${f * 100} %`} until the referee changes it (it multiplies with rain and wind).`
    : ` The temperature is ${t}: it does not slow the march.`;
}

/**
 * Reads terrain costs as the referee writes them: `forest=12, swamp=18` (each land terrain at
 * most once), or `default`/empty for the profile's own table. Out-of-range numbers are left to
 * the schema, which refuses them with the option's name.
 */
function parseTerrainCosts(text: string): Partial<Record<LandTerrain, number>> | undefined {
  const t = text.trim();
  if (t === '' || t === 'default') return undefined;
  const out: Partial<Record<LandTerrain, number>> = {};
  for (const part of t.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
    const m = /^([a-z]+)\s*=\s*(\d+)$/.exec(part);
    const terrain = m?.[1] as LandTerrain | undefined;
    if (!m || !terrain || !LAND_TERRAINS.includes(terrain) || out[terrain] !== undefined) {
      throw new UserError('settings.badTerrainCosts', `Nothing was changed. ${echo(part)} is not a terrain cost: \`terrain-costs\` takes \`terrain=points\` pairs for ${LAND_TERRAINS.join(', ')}, each once, e.g. \`forest=12, swamp=18\`, or \`default\`.`);
    }
    out[terrain] = Number(m[2]);
  }
  return out;
}

/** The spectator page as the settings read it. */
const spectatorsText = (s: CampaignSettings): string => (s.spectatorDelay === undefined ? 'off' : `on, ${s.spectatorDelay} half period${s.spectatorDelay === 1 ? '' : 's'} behind`);

/**
 * Reads the spectator setting as the referee writes it: `off` (or `none`), or a whole number of
 * half periods (its range is left to the schema, which names the option and the range).
 */
function parseSpectators(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (['off', 'none', ''].includes(t)) return undefined;
  if (!/^\d{1,6}$/.test(t)) {
    throw new UserError('settings.badSpectators', `Nothing was changed. ${echo(text.trim())} is not a spectator setting: \`spectators\` takes ${accepted('spectatorDelay', DEFAULT_SETTINGS)}.`);
  }
  return Number(t);
}

/** The settings as a referee reads them: each by the option that sets it. */
function describe(s: CampaignSettings): string {
  return [
    `cadence \`${s.cadence}\` (${s.timezone})`,
    `reminder-lead ${s.reminderLeadMinutes} min`,
    `catch-up ${s.catchUp} (at most ${s.catchUpCap} missed half periods)`,
    `referee-role ${s.refereeRoleId ? `<@&${s.refereeRoleId}>` : 'none'}`,
    `table-width ${s.tableWidth}${markOf(s)}, bow-range ${s.shortBowRange}${markOf(s)}`,
    `drought ${onOff(s.drought)}`,
    `advanced-embarkation ${onOff(s.advancedEmbarkation)}`,
    `passage-of-lines ${onOff(s.passageOfLines)}`,
    `unformed-as-retreat ${onOff(s.unformedAsRetreat)}`,
    `nocturnal-day-march ${onOff(s.nocturnalDayMarch)}`,
    `missed-orders ${s.defaultOrder}`,
    `decision-deadline ${s.decisionDeadlineTicks === 1 ? 'the next tick' : `${s.decisionDeadlineTicks} ticks`}`,
    `undo-depth ${s.undoDepth} half periods`,
    `manual-dice ${s.manualDice}`,
    `positions ${s.positions === 'fog' ? 'fog of war' : 'public'}`,
    `commander-books ${onOff(s.commanderBooks)}`,
    `absent-after ${s.absentAfterHalves > 0 ? `${s.absentAfterHalves} half periods` : 'off'}`,
    `early-tick ${s.earlyTickGapMinutes > 0 ? `on, at least ${s.earlyTickGapMinutes} min apart` : 'off'}`,
    `quiet-hours ${s.quietHours ?? 'none'}`,
    `spectators ${spectatorsText(s)}`,
    ...profileParts(s),
  ].join('; ');
}

/**
 * The settings after a change: the values given, terrain costs parsed, and a new tactical
 * profile's table presets unless the same change gives the table width or bow range.
 */
function applyChanges(cur: CampaignSettings, changes: readonly (readonly [keyof CampaignSettings, unknown])[]): CampaignSettings {
  const plain = changes.filter(([k]) => k !== 'terrainCosts' && k !== 'quietHours' && k !== 'spectatorDelay').map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]);
  let settings = { ...cur, ...Object.fromEntries(plain) } as CampaignSettings;
  const quiet = changes.find(([k]) => k === 'quietHours');
  if (quiet) {
    const { quietHours: _old, ...rest } = settings;
    const text = String(quiet[1]).trim();
    settings = ['none', 'off', ''].includes(text.toLowerCase()) ? rest : { ...rest, quietHours: text };
  }
  const spectators = changes.find(([k]) => k === 'spectatorDelay');
  if (spectators) {
    const { spectatorDelay: _old, ...rest } = settings;
    const delay = parseSpectators(String(spectators[1]));
    settings = { ...rest, ...(delay !== undefined ? { spectatorDelay: delay } : {}) };
  }
  const costs = changes.find(([k]) => k === 'terrainCosts');
  if (costs) {
    const { terrainCosts: _old, ...rest } = settings;
    const parsed = parseTerrainCosts(String(costs[1]));
    settings = { ...rest, ...(parsed ? { terrainCosts: parsed } : {}) };
  }
  if (settings.tactical !== cur.tactical) {
    const presets = tacticalProfile(settings).presets;
    const given = new Set(changes.map(([k]) => k));
    settings = { ...settings, ...(given.has('tableWidth') ? {} : { tableWidth: presets.tableWidth }), ...(given.has('shortBowRange') ? {} : { shortBowRange: presets.shortBowRange }) };
  }
  return settings;
}

/**
 * Referee: shows or changes the campaign's settings. Every change is validated by the settings
 * schema, logged and announced. Switching `positions:` once the campaign has started first tells
 * the referee what it will reveal and hide, and applies only confirmed (`positions:fog!`, `positions:public!`).
 */
export function campaignSettings(app: App, actor: Actor, input: SettingsInput, opts: { confirm?: boolean | undefined } = {}): Reply[] {
  const changes = (Object.entries(input) as [keyof CampaignSettings, unknown][]).filter(([, v]) => v !== undefined);
  // Without options it only shows them: a read, no write lock.
  if (changes.length === 0) return readCampaign(app, { actor }, (tx) => [reply(`Settings of **${escapeName(tx.state.name)}**: ${describe(tx.state.settings)}.`, tx.state.settings)]);
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'change settings');
    const cur = tx.state.settings;
    const settings = applyChanges(cur, changes);
    const problems = checkSettings(settings);
    if (problems.length > 0) {
      const named = [...new Set(problems.map((p) => p.setting))];
      const lines = named.map((k) => `\`${OPTION_OF[k]}\` takes ${accepted(k, settings)}.`);
      throw new UserError('settings.invalid', `Nothing was changed. ${lines.join(' ')}`, { settings: named.map((k) => OPTION_OF[k]) });
    }
    checkCadence(settings.cadence, settings.timezone);
    const switching = positionsSwitchPreview(tx.state, settings.positions);
    if (switching && !opts.confirm) return { result: [ephemeral(`Nothing was changed yet.\n${switching}`, { confirm: 'positions', from: cur.positions, to: settings.positions })] };
    if (settings.earlyTickGapMinutes > 0 && cur.earlyTickGapMinutes === 0 && activeCommanders(tx).length === 0) {
      throw new UserError('settings.earlyTickNobody', 'Nothing was changed. `early-tick` plays the tick when every commander is ready, and no army has a commander yet: assign armies first with `/campaign assign`, then turn it on.');
    }
    const timesChanged = settings.cadence !== cur.cadence || settings.timezone !== cur.timezone || settings.quietHours !== cur.quietHours;
    const scheduleChanged = timesChanged || settings.reminderLeadMinutes !== cur.reminderLeadMinutes;
    const due = tx.meta.nextTickAt;
    const control = scheduleChanged && tx.state.status === 'running'
      ? timesChanged || !due
        ? deadlineControl(scheduleFromNow(settings, tx.now, tx.meta.lastTickAt).at.toISOString(), reminderSettings(tx, settings))
        : { remindAt: reminderTime(due, reminderSettings(tx, settings)) }
      : undefined;
    // Fog falls: every army remembers the others where it last saw them on the public map.
    const fogFell = settings.positions === 'fog' && cur.positions !== 'fog';
    const said = changes.map(([k]) => `${OPTION_OF[k]} ${k === 'refereeRoleId' ? `<@&${settings.refereeRoleId}>` : k === 'quietHours' ? settings.quietHours ?? 'none' : k === 'spectatorDelay' ? spectatorsText(settings) : k === 'terrainCosts' ? (settings.terrainCosts ? Object.entries(settings.terrainCosts).map(([t, n]) => `${t}=${n}`).join(', ') : 'default') : String(settings[k])}`).join(', ');
    const idle = idleUnder(settings, changes.map(([k]) => k));
    const heat = changes.some(([k]) => k === 'temperature') ? temperatureWords(settings) : '';
    const text = `Settings changed by the referee: ${said}.${heat}${idle}`;
    return {
      state: { ...tx.state, settings, ...(fogFell ? { knowledge: fogFalls({ ...tx.state, settings }) } : {}) },
      ...(control ? { control } : {}),
      events: [{ type: 'settingsChanged', audience: PUBLIC, text, data: { changes: Object.fromEntries(changes.map(([k]) => [OPTION_OF[k], settings[k]])) } }],
      result: [reply(`${text}\nNow: ${describe(settings)}.`, settings)],
    };
  });
}
