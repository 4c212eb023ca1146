import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { discordTime, gameTimeLabel, list } from '../format.js';
import { reply, withCards, type CardField, type Reply } from '../messages.js';
import { commandersOf, inCampaign } from '../session.js';

/**
 * Game time, the next tick, and who has or has not given orders (names only, never contents), as
 * a card. Armies nobody commands are summed up in one line: they take the default order.
 */
export function turnStatus(app: App, actor: Actor): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const s = tx.state;
    const live = Object.values(s.armies).filter((a) => !a.status.destroyed);
    const played = live.filter((a) => commandersOf(tx, a.id).length > 0);
    const unassigned = live.filter((a) => commandersOf(tx, a.id).length === 0);
    const given = live.filter((a) => s.orders[a.id]).map((a) => a.name);
    const missing = live.filter((a) => !s.orders[a.id]).map((a) => a.name);
    const who = (armyId: string): string => commandersOf(tx, armyId).map((u) => tx.members.find((m) => m.userId === u)?.displayName || u).join(' & ');
    const next = tx.meta.nextTickAt ? `${discordTime(tx.meta.nextTickAt)} (${discordTime(tx.meta.nextTickAt, 'R')})` : 'not scheduled';
    const playedGiven = played.filter((a) => s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`);
    const playedMissing = played.filter((a) => !s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`);
    const unassignedGiven = unassigned.filter((a) => s.orders[a.id]).length;
    const fields: CardField[] = [
      { name: 'Next tick', value: next },
      { name: 'Orders given', value: list(playedGiven, 'nobody yet') },
      { name: 'No orders yet', value: playedMissing.length > 0 ? `${playedMissing.join(', ')}: without orders they will ${s.settings.defaultOrder}.` : 'none: every commander has given orders.' },
      ...(unassigned.length > 0
        ? [{ name: 'Nobody commands', value: `${unassigned.length} arm${unassigned.length === 1 ? 'y' : 'ies'}${unassignedGiven > 0 ? ` (${unassignedGiven} with orders from the referee)` : ''}: they ${unassignedGiven === unassigned.length ? 'follow them' : `will ${s.settings.defaultOrder}`}. \`/campaign status\` lists them.` }]
        : []),
    ];
    const card = { title: `${s.name}: ${gameTimeLabel(s)}`, description: `The campaign is ${s.status}.`, fields };
    const text = `**${gameTimeLabel(s)}**: ${s.status}. Next tick: ${next}. No orders yet from ${playedMissing.length} of ${played.length} commanded arm${played.length === 1 ? 'y' : 'ies'}.`;
    return { result: [withCards(reply(text, { clock: s.clock, status: s.status, nextTickAt: tx.meta.nextTickAt, ordersGiven: given, ordersMissing: missing, unassigned: unassigned.map((a) => a.id) }), [card])] };
  });
}
