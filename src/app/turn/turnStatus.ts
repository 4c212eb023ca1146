import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { discordTime, gameTimeLabel, list } from '../format.js';
import { reply, type Reply } from '../messages.js';
import { inCampaign } from '../session.js';

/** Game time, the next tick, and who has or has not given orders (names only, never contents). */
export function turnStatus(app: App, actor: Actor): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const s = tx.state;
    const live = Object.values(s.armies).filter((a) => !a.status.destroyed);
    const given = live.filter((a) => s.orders[a.id]).map((a) => a.name);
    const missing = live.filter((a) => !s.orders[a.id]).map((a) => a.name);
    const next = tx.meta.nextTickAt ? `${discordTime(tx.meta.nextTickAt)} (${discordTime(tx.meta.nextTickAt, 'R')})` : 'not scheduled';
    const text = [
      `**${gameTimeLabel(s)}** — ${s.status}. Next tick: ${next}.`,
      `Orders given: ${list(given)}.`,
      `No orders yet: ${list(missing)} (they will ${s.settings.defaultOrder}).`,
    ].join('\n');
    return { result: [reply(text, { clock: s.clock, status: s.status, nextTickAt: tx.meta.nextTickAt, ordersGiven: given, ordersMissing: missing })] };
  });
}
