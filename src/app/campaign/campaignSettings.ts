import { PUBLIC } from '../../engine/events/index.js';
import { fogFalls } from '../../engine/knowledge/index.js';
import { type CampaignSettings, checkSettings, SETTING_LIMITS } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { reply, type Reply } from '../messages.js';
import { checkCadence, deadlineControl, nextDueFromNow } from '../schedule.js';
import { inCampaign, requireReferee } from '../session.js';

/** A change to the settings, by setting (undefined: unchanged); text values are checked against the schema. */
export type SettingsInput = { readonly [K in keyof CampaignSettings]?: (CampaignSettings[K] extends string ? string : CampaignSettings[K]) | undefined };

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
};

/** What each setting accepts, for refusals. */
function accepted(setting: keyof CampaignSettings, current: CampaignSettings): string {
  const limits = (SETTING_LIMITS as Readonly<Record<string, { min: number; max: number } | undefined>>)[setting];
  if (setting === 'shortBowRange') return `a number of inches from ${SETTING_LIMITS.shortBowRange.min} up to less than half the table width (${current.tableWidth / 2}")`;
  if (limits) return `a number from ${limits.min} to ${limits.max}`;
  if (setting === 'catchUp') return '`all`, `one` or `none`';
  if (setting === 'defaultOrder') return '`rest` or `hold`';
  if (setting === 'refereeRoleId') return 'a role';
  if (setting === 'manualDice') return '`none`, `contact` (the commanders\' contact and deployment rolls), `battle` (every roll of contacts and battles) or `all`';
  if (setting === 'positions') return '`public` (every army\'s position is public) or `fog` (fog of war)';
  return 'a valid value';
}

const onOff = (b: boolean): string => (b ? 'on' : 'off');

/** The settings as a referee reads them: each by the option that sets it. */
function describe(s: CampaignSettings): string {
  return [
    `cadence \`${s.cadence}\` (${s.timezone})`,
    `reminder-lead ${s.reminderLeadMinutes} min`,
    `catch-up ${s.catchUp} (at most ${s.catchUpCap} missed half periods)`,
    `referee-role ${s.refereeRoleId ? `<@&${s.refereeRoleId}>` : 'none'}`,
    `table-width ${s.tableWidth}", bow-range ${s.shortBowRange}"`,
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
  ].join('; ');
}

/** Referee: shows or changes the campaign's settings. Every change is validated by the settings schema, logged and announced. */
export function campaignSettings(app: App, actor: Actor, input: SettingsInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const changes = (Object.entries(input) as [keyof CampaignSettings, unknown][]).filter(([, v]) => v !== undefined);
    if (changes.length === 0) return { result: [reply(`Settings of **${tx.state.name}**: ${describe(tx.state.settings)}.`, tx.state.settings)] };
    requireReferee(tx, 'change settings');
    const cur = tx.state.settings;
    const settings = { ...cur, ...Object.fromEntries(changes.map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v])) } as CampaignSettings;
    const problems = checkSettings(settings);
    if (problems.length > 0) {
      const lines = problems.map((p) => `\`${OPTION_OF[p.setting]}\` takes ${accepted(p.setting, settings)}.`);
      throw new UserError('settings.invalid', `Nothing was changed. ${lines.join(' ')}`, { settings: problems.map((p) => OPTION_OF[p.setting]) });
    }
    checkCadence(settings.cadence, settings.timezone);
    const scheduleChanged = settings.cadence !== cur.cadence || settings.timezone !== cur.timezone || settings.reminderLeadMinutes !== cur.reminderLeadMinutes;
    const due = tx.meta.nextTickAt;
    const control = scheduleChanged && tx.state.status === 'running'
      ? settings.cadence !== cur.cadence || settings.timezone !== cur.timezone || !due
        ? deadlineControl(nextDueFromNow(settings.cadence, settings.timezone, tx.now, tx.meta.lastTickAt).toISOString(), settings.reminderLeadMinutes)
        : { remindAt: settings.reminderLeadMinutes > 0 ? new Date(Date.parse(due) - settings.reminderLeadMinutes * 60_000).toISOString() : null }
      : undefined;
    // Fog falls: every army remembers the others where it last saw them on the public map.
    const fogFell = settings.positions === 'fog' && cur.positions !== 'fog';
    const said = changes.map(([k]) => `${OPTION_OF[k]} ${k === 'refereeRoleId' ? `<@&${settings.refereeRoleId}>` : String(settings[k])}`).join(', ');
    const text = `Settings changed by the referee: ${said}.`;
    return {
      state: { ...tx.state, settings, ...(fogFell ? { knowledge: fogFalls({ ...tx.state, settings }) } : {}) },
      ...(control ? { control } : {}),
      events: [{ type: 'settingsChanged', audience: PUBLIC, text, data: { changes: Object.fromEntries(changes.map(([k]) => [OPTION_OF[k], settings[k]])) } }],
      result: [reply(`${text}\nNow: ${describe(settings)}.`, settings)],
    };
  });
}
