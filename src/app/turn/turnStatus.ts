import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { discordTime, gameTimeLabel, list } from '../format.js';
import { reply, withCards, type CardField, type Reply } from '../messages.js';
import { commandersOf, inCampaign } from '../session.js';
import { activeCommanders } from './markReady.js';

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
    const { earlyFrom, resumeAt, pauseReason } = tx.meta;
    const early = earlyFrom !== null ? `: early, every commander is ready (it was due ${discordTime(earlyFrom)})` : '';
    const next = tx.meta.nextTickAt ? `${discordTime(tx.meta.nextTickAt)} (${discordTime(tx.meta.nextTickAt, 'R')})${early}` : 'not scheduled';
    const name = (u: string): string => tx.members.find((m) => m.userId === u)?.displayName || u;
    const active = activeCommanders(tx);
    const ready = active.filter((u) => tx.meta.ready.includes(u));
    const gap = s.settings.earlyTickGapMinutes;
    const readyLine = `${list(ready.map(name).sort(), 'nobody yet')} (${ready.length} of ${active.length})${gap > 0 ? `. Early ticks are on: when all are ready the tick comes, at least ${gap} minutes after the last one.` : ''}`;
    const paused = s.status === 'paused' && (resumeAt !== null || pauseReason !== null)
      ? [{ name: 'Paused', value: `${pauseReason ?? 'no reason given'}${resumeAt ? `; resumes by itself ${discordTime(resumeAt)} (${discordTime(resumeAt, 'R')})` : ''}.` }]
      : [];
    const playedGiven = played.filter((a) => s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`);
    const playedMissing = played.filter((a) => !s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`);
    const unassignedGiven = unassigned.filter((a) => s.orders[a.id]).length;
    const fields: CardField[] = [
      ...paused,
      { name: 'Next tick', value: next },
      ...(s.settings.quietHours ? [{ name: 'Quiet hours', value: `${s.settings.quietHours} (${s.settings.timezone}): no tick or reminder inside them.` }] : []),
      ...(active.length > 0 ? [{ name: 'Ready', value: readyLine }] : []),
      { name: 'Orders given', value: list(playedGiven, 'nobody yet') },
      { name: 'No orders yet', value: playedMissing.length > 0 ? `${playedMissing.join(', ')}: without orders they will ${s.settings.defaultOrder}.` : 'none: every commander has given orders.' },
      ...(unassigned.length > 0
        ? [{ name: 'Nobody commands', value: `${unassigned.length} arm${unassigned.length === 1 ? 'y' : 'ies'}${unassignedGiven > 0 ? ` (${unassignedGiven} with orders from the referee)` : ''}: they ${unassignedGiven === unassigned.length ? 'follow them' : `will ${s.settings.defaultOrder}`}. \`/campaign status\` lists them.` }]
        : []),
    ];
    const card = { title: `${s.name}: ${gameTimeLabel(s)}`, description: `The campaign is ${s.status}.`, fields };
    const text = `**${gameTimeLabel(s)}**: ${s.status}${paused.length > 0 ? ` (${paused[0]?.value.replace(/\.$/, '')})` : ''}. Next tick: ${next}. No orders yet from ${playedMissing.length} of ${played.length} commanded arm${played.length === 1 ? 'y' : 'ies'}.`;
    return { result: [withCards(reply(text, { clock: s.clock, status: s.status, nextTickAt: tx.meta.nextTickAt, ordersGiven: given, ordersMissing: missing, unassigned: unassigned.map((a) => a.id), ready: ready.map(name), resumeAt, pauseReason }), [card])] };
  });
}
