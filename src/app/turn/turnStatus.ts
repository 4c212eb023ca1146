import { isFog } from '../../engine/knowledge/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { discordTime, gameTimeLabel, list } from '../format.js';
import { ephemeral, reply, withCards, type CardField, type Reply } from '../messages.js';
import { commandersOf } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import { activeCommanders } from './markReady.js';

/**
 * Game time, the next tick, and who has or has not given orders (names only, never contents), as
 * a card. Armies nobody commands are summed up in one line: they take the default order.
 * The answer is public, so in fog of war it counts only what the channel knows: every army of the
 * campaign (an army destroyed out of sight is not known to be gone), and no word of the referee's
 * orders to armies nobody commands. The referee is told privately what that view still counts.
 */
export function turnStatus(app: App, actor: Actor): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const s = tx.state;
    const fog = isFog(s);
    const live = Object.values(s.armies).filter((a) => fog || !a.status.destroyed);
    const played = live.filter((a) => commandersOf(tx, a.id).length > 0);
    const unassigned = live.filter((a) => commandersOf(tx, a.id).length === 0);
    const listed = fog ? played : live;
    const given = listed.filter((a) => s.orders[a.id]).map((a) => a.name);
    const missing = listed.filter((a) => !s.orders[a.id]).map((a) => a.name);
    const who = (armyId: string): string => commandersOf(tx, armyId).map((u) => tx.members.find((m) => m.userId === u)?.displayName || u).join(' & ');
    const { earlyFrom, resumeAt, pauseReason } = tx.meta;
    const early = earlyFrom !== null ? `: early, every commander is ready (it was due ${discordTime(earlyFrom)})` : '';
    const next = tx.meta.nextTickAt ? `${discordTime(tx.meta.nextTickAt)} (${discordTime(tx.meta.nextTickAt, 'R')})${early}` : 'not scheduled';
    const name = (u: string): string => tx.members.find((m) => m.userId === u)?.displayName || u;
    // In fog the commanders of every army count: whose army is gone is not public.
    const active = fog ? [...new Set(tx.members.filter((m) => m.role === 'commander' && s.armies[m.armyId]).map((m) => m.userId))] : activeCommanders(tx);
    const ready = active.filter((u) => tx.meta.ready.includes(u));
    const gap = s.settings.earlyTickGapMinutes;
    const readyLine = `${list(ready.map(name).sort(), 'nobody yet')} (${ready.length} of ${active.length})${gap > 0 ? `. Early ticks are on: when all are ready the tick comes, at least ${gap} minutes after the last one.` : ''}`;
    const paused = s.status === 'paused' && (resumeAt !== null || pauseReason !== null)
      ? [{ name: 'Paused', value: `${pauseReason ?? 'no reason given'}${resumeAt ? `; resumes by itself ${discordTime(resumeAt)} (${discordTime(resumeAt, 'R')})` : ''}.` }]
      : [];
    const playedGiven = played.filter((a) => s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`);
    const playedMissing = played.filter((a) => !s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`);
    const unassignedGiven = fog ? 0 : unassigned.filter((a) => s.orders[a.id]).length;
    const fields: CardField[] = [
      ...paused,
      { name: 'Next tick', value: next },
      ...(s.settings.quietHours ? [{ name: 'Quiet hours', value: `${s.settings.quietHours} (${s.settings.timezone}): no tick or reminder inside them.` }] : []),
      ...(active.length > 0 ? [{ name: 'Ready', value: readyLine }] : []),
      { name: 'Orders given', value: list(playedGiven, 'nobody yet') },
      { name: 'No orders yet', value: playedMissing.length > 0 ? `${playedMissing.join(', ')}: without orders they will ${s.settings.defaultOrder}.` : 'none: every commander has given orders.' },
      ...(unassigned.length > 0
        ? [{ name: 'Nobody commands', value: `${unassigned.length} arm${unassigned.length === 1 ? 'y' : 'ies'}${unassignedGiven > 0 ? ` (${unassignedGiven} with orders from the referee)` : ''}: they ${fog ? `follow the referee's orders, or ${s.settings.defaultOrder}` : unassignedGiven === unassigned.length ? 'follow them' : `will ${s.settings.defaultOrder}`}. \`/campaign status\` lists them.` }]
        : []),
    ];
    const card = { title: `${s.name}: ${gameTimeLabel(s)}`, description: `The campaign is ${s.status}.`, fields };
    const text = `**${gameTimeLabel(s)}**: ${s.status}${paused.length > 0 ? ` (${paused[0]?.value.replace(/\.$/, '')})` : ''}. Next tick: ${next}. No orders yet from ${playedMissing.length} of ${played.length} commanded arm${played.length === 1 ? 'y' : 'ies'}.`;
    const out: Reply[] = [withCards(reply(text, { clock: s.clock, status: s.status, nextTickAt: tx.meta.nextTickAt, ordersGiven: given, ordersMissing: missing, unassigned: unassigned.map((a) => a.id), ready: ready.map(name), resumeAt, pauseReason }), [card])];
    const gone = fog ? live.filter((a) => a.status.destroyed) : [];
    if (tx.isReferee && gone.length > 0) {
      out.push(ephemeral(`Referee only: fog of war keeps ${list(gone.map((a) => a.name).sort(), '')} counted above: ${gone.length === 1 ? 'it was' : 'they were'} destroyed out of the other sides' sight.`, { destroyed: gone.map((a) => a.id) }));
    }
    return { result: out };
  });
}
