import { PUBLIC } from '../../engine/events/index.js';
import type { CampaignSettings, CatchUpPolicy } from '../../engine/state/index.js';
import { setSchedule } from '../../db/campaignRepo.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { reply, type Message } from '../messages.js';
import { checkCadence, nextDue } from '../schedule.js';
import { inCampaign, requireReferee } from '../session.js';

export interface SettingsInput {
  readonly cadence?: string | undefined;
  readonly timezone?: string | undefined;
  readonly reminderLeadMinutes?: number | undefined;
  readonly catchUp?: string | undefined;
  readonly refereeRoleId?: string | undefined;
  readonly tableWidth?: number | undefined;
  readonly shortBowRange?: number | undefined;
  readonly drought?: boolean | undefined;
  readonly advancedEmbarkation?: boolean | undefined;
  readonly defaultOrder?: string | undefined;
  readonly decisionDeadlineTicks?: number | undefined;
}

const describe = (s: CampaignSettings): string => [
  `cadence \`${s.cadence}\` (${s.timezone})`,
  `reminders ${s.reminderLeadMinutes} min before a deadline`,
  `catch-up after downtime: ${s.catchUp}`,
  `referee role: ${s.refereeRoleId ? `<@&${s.refereeRoleId}>` : 'none'}`,
  `table ${s.tableWidth}" with short bow range ${s.shortBowRange}"`,
  `drought rule ${s.drought ? 'on' : 'off'}`,
  `advanced embarkation ${s.advancedEmbarkation ? 'on' : 'off'}`,
  `missed orders: ${s.defaultOrder}`,
  `contact answers due ${s.decisionDeadlineTicks === 1 ? 'by the next tick' : `within ${s.decisionDeadlineTicks} ticks`}`,
].join('; ');

/** Referee: shows or changes the campaign's settings. Every change is logged and announced. */
export function campaignSettings(app: App, actor: Actor, input: SettingsInput): Message[] {
  return inCampaign(app, { actor }, (tx) => {
    const changes = Object.entries(input).filter(([, v]) => v !== undefined);
    if (changes.length === 0) return { result: [reply(`Settings of **${tx.state.name}**: ${describe(tx.state.settings)}.`, tx.state.settings)] };
    requireReferee(tx, 'change settings');
    const cur = tx.state.settings;
    const cadence = input.cadence?.trim() ?? cur.cadence;
    const timezone = input.timezone?.trim() ?? cur.timezone;
    checkCadence(cadence, timezone);
    if (input.catchUp !== undefined && !['all', 'one', 'none'].includes(input.catchUp)) {
      throw new UserError('settings.badCatchUp', 'catch-up must be `all` (run every missed tick), `one` (run one and tell the referee) or `none` (run none and tell the referee).');
    }
    if (input.reminderLeadMinutes !== undefined && (input.reminderLeadMinutes < 0 || input.reminderLeadMinutes > 24 * 60)) {
      throw new UserError('settings.badReminder', 'The reminder lead time is in minutes, from 0 (no reminders) to 1440.');
    }
    if (input.tableWidth !== undefined && input.tableWidth < 28.5) throw new UserError('settings.tableTooSmall', 'The baseline calculation needs a table at least 28.5 inches wide.');
    if (input.shortBowRange !== undefined && (input.shortBowRange <= 0 || input.shortBowRange >= (input.tableWidth ?? cur.tableWidth))) {
      throw new UserError('settings.badBowRange', 'The short bow range (inches) must be above 0 and below the table width.');
    }
    if (input.decisionDeadlineTicks !== undefined && (!Number.isInteger(input.decisionDeadlineTicks) || input.decisionDeadlineTicks < 1 || input.decisionDeadlineTicks > 8)) {
      throw new UserError('settings.badDecisionDeadline', 'decision-deadline is a number of ticks from 1 (the next tick, the default) to 8.');
    }
    if (input.defaultOrder !== undefined && !['hold', 'rest'].includes(input.defaultOrder)) throw new UserError('settings.badDefaultOrder', 'missed-orders must be `rest` or `hold`.');
    const settings: CampaignSettings = {
      ...cur,
      cadence,
      timezone,
      ...(input.reminderLeadMinutes !== undefined ? { reminderLeadMinutes: input.reminderLeadMinutes } : {}),
      ...(input.catchUp !== undefined ? { catchUp: input.catchUp as CatchUpPolicy } : {}),
      ...(input.refereeRoleId !== undefined ? { refereeRoleId: input.refereeRoleId } : {}),
      ...(input.tableWidth !== undefined ? { tableWidth: input.tableWidth } : {}),
      ...(input.shortBowRange !== undefined ? { shortBowRange: input.shortBowRange } : {}),
      ...(input.drought !== undefined ? { drought: input.drought } : {}),
      ...(input.advancedEmbarkation !== undefined ? { advancedEmbarkation: input.advancedEmbarkation } : {}),
      ...(input.defaultOrder !== undefined ? { defaultOrder: input.defaultOrder as 'hold' | 'rest' } : {}),
      ...(input.decisionDeadlineTicks !== undefined ? { decisionDeadlineTicks: input.decisionDeadlineTicks } : {}),
    };
    if ((cadence !== cur.cadence || timezone !== cur.timezone) && tx.state.status === 'running') {
      setSchedule(tx.db, tx.meta.id, nextDue(cadence, timezone, tx.now).toISOString());
    }
    const text = `Settings changed by the referee: ${changes.map(([k, v]) => `${k} = ${String(v)}`).join(', ')}.`;
    return { state: { ...tx.state, settings }, events: [{ type: 'settingsChanged', audience: PUBLIC, text, data: { changes: Object.fromEntries(changes) } }], result: [reply(`${text}\nNow: ${describe(settings)}.`, settings)] };
  });
}
