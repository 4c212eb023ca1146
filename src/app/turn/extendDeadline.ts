import { formatGameTime } from '../../engine/clock/index.js';
import { PUBLIC } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { discordTime } from '../format.js';
import { reply, type Reply } from '../messages.js';
import { outOfQuietHours, reminderTime } from '../schedule.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import { reminderSettings } from '../notices.js';

/** At most this many extensions of one half period's deadline, and this much in all. */
const MAX_EXTENSIONS = 2;
const MAX_EXTENSION_MINUTES = 24 * 60;

/**
 * Referee: moves the current deadline (the next tick) later. Announced to everyone and logged;
 * capped so a deadline cannot be pushed back forever.
 */
export function extendDeadline(app: App, actor: Actor, minutes: number | undefined): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'extend the deadline');
    if (tx.state.status !== 'running' || !tx.meta.nextTickAt) throw new UserError('extend.notRunning', 'There is no running deadline to extend; `/campaign resume` or `/campaign start` first.');
    if (tx.meta.earlyFrom !== null) throw new UserError('extend.early', 'Every commander is ready and the tick comes early; there is nothing to wait for. A commander who wants more time can take it back with `/ready undo:true`.');
    if (minutes === undefined || !Number.isInteger(minutes) || minutes < 1) throw new UserError('extend.minutes', 'Say by how many minutes, e.g. `/turn extend minutes:120`.');
    const { deadlineExtensions: done, deadlineExtensionMinutes: used } = tx.meta;
    if (done >= MAX_EXTENSIONS) throw new UserError('extend.tooMany', `This deadline was already extended ${done} times; that is the most for one half period.`);
    if (used + minutes > MAX_EXTENSION_MINUTES) {
      throw new UserError('extend.tooLong', `A deadline may be extended by ${MAX_EXTENSION_MINUTES / 60} hours in all; ${MAX_EXTENSION_MINUTES - used} minute(s) are left for this one.`);
    }
    const asked = new Date(Date.parse(tx.meta.nextTickAt) + minutes * 60_000);
    // Never into the quiet hours: the tick waits for their end (the cap counts what was asked).
    const due = outOfQuietHours(asked, tx.state.settings).toISOString();
    const moved = due !== asked.toISOString() ? `, after the quiet hours ${tx.state.settings.quietHours ?? ''}` : '';
    const text = `The referee extended the deadline for ${formatGameTime(tx.state.clock)} by ${minutes} minute(s): the next tick is ${discordTime(due)} (${discordTime(due, 'R')}${moved}).`;
    return {
      control: {
        nextTickAt: due, deadlineExtensions: done + 1, deadlineExtensionMinutes: used + minutes,
        remindAt: reminderTime(due, reminderSettings(tx, tx.state.settings)),
      },
      events: [{ type: 'deadlineExtended', audience: PUBLIC, text, data: { minutes, due } }],
      result: [reply(text, { nextTickAt: due, minutes, extensions: done + 1 })],
    };
  });
}
