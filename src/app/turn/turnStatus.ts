import { escapeName, literal } from '../../engine/events/index.js';
import type { Army } from '../../engine/forces/index.js';
import { isFog } from '../../engine/knowledge/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { CampaignTx } from '../campaignTx.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { discordTime, gameTimeLabel, list } from '../format.js';
import { ephemeral, reply, withCards, type CardField, type Reply } from '../messages.js';
import { commandersOf, memberName, shownName } from '../members.js';
import { readCampaign } from '../unitOfWork.js';
import { activeCommanders } from './markReady.js';

/**
 * Game time, the next tick, and who has or has not given orders (names only, never contents), as
 * a card. Armies nobody commands are summed up in one line: they take the default order.
 * The answer is public, so in fog of war it counts only what the channel knows: every army of the
 * campaign (an army destroyed out of sight is not known to be gone), and no word of the referee's
 * orders to armies nobody commands. The referee is told privately what that view still counts.
 */
export function turnStatus(app: App, actor: Actor): Reply[] {
  return readCampaign(app, { actor }, (tx) => {
    const s = tx.state;
    const fog = isFog(s);
    const live = Object.values(s.armies).filter((a) => fog || !a.status.destroyed);
    const played = live.filter((a) => commandersOf(tx, a.id).length > 0);
    const unassigned = live.filter((a) => commandersOf(tx, a.id).length === 0);
    const listed = fog ? played : live;
    const who = (armyId: string): string => commandersOf(tx, armyId).map((u) => shownName(tx, u)).join(' & ');
    const next = nextTickLine(tx.meta);
    const { active, ready } = readiness(tx, fog);
    const paused = pausedFields(tx);
    const playedMissing = played.filter((a) => !s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`);
    const fields: CardField[] = [
      ...paused,
      { name: 'Next tick', value: next },
      ...(s.settings.quietHours ? [{ name: 'Quiet hours', value: `${s.settings.quietHours} (${s.settings.timezone}): no tick or reminder inside them.` }] : []),
      ...(active.length > 0 ? [{ name: 'Ready', value: readyLine(tx, active, ready) }] : []),
      { name: 'Orders given', value: list(played.filter((a) => s.orders[a.id]).map((a) => `${a.name} (${who(a.id)})`), 'nobody yet') },
      { name: 'No orders yet', value: playedMissing.length > 0 ? `${playedMissing.join(', ')}: without orders they will ${s.settings.defaultOrder}.` : 'none: every commander has given orders.' },
      ...nobodyCommandsFields(s, unassigned, fog),
    ];
    const card = { title: `${escapeName(s.name)}: ${gameTimeLabel(s)}`, description: `The campaign is ${s.status}.`, fields };
    const text = `**${gameTimeLabel(s)}**: ${s.status}${paused.length > 0 ? ` (${paused[0]?.value.replace(/\.$/, '')})` : ''}. Next tick: ${next}. No orders yet from ${playedMissing.length} of ${played.length} commanded arm${played.length === 1 ? 'y' : 'ies'}.`;
    const { resumeAt, pauseReason } = tx.meta;
    const data = {
      clock: s.clock, status: s.status, nextTickAt: tx.meta.nextTickAt,
      ordersGiven: listed.filter((a) => s.orders[a.id]).map((a) => a.name), ordersMissing: listed.filter((a) => !s.orders[a.id]).map((a) => a.name),
      unassigned: unassigned.map((a) => a.id), ready: ready.map((u) => memberName(tx, u) || u), resumeAt, pauseReason,
    };
    return [withCards(reply(text, data), [card]), ...refereeFogNote(tx, fog ? live.filter((a) => a.status.destroyed) : [])];
  });
}

/** When the next tick comes (and whether early, everyone being ready), or that none is scheduled. */
function nextTickLine(meta: CampaignTx['meta']): string {
  if (!meta.nextTickAt) return 'not scheduled';
  const early = meta.earlyFrom !== null ? `: early, every commander is ready (it was due ${discordTime(meta.earlyFrom)})` : '';
  return `${discordTime(meta.nextTickAt)} (${discordTime(meta.nextTickAt, 'R')})${early}`;
}

/** The commanders who count for an early tick, and which of them said `/ready`. */
function readiness(tx: CampaignTx, fog: boolean): { active: string[]; ready: string[] } {
  // In fog the commanders of every army count: whose army is gone is not public.
  const active = fog ? [...new Set(tx.members.filter((m) => m.role === 'commander' && tx.state.armies[m.armyId]).map((m) => m.userId))] : activeCommanders(tx);
  return { active, ready: active.filter((u) => tx.meta.ready.includes(u)) };
}

function readyLine(tx: CampaignTx, active: readonly string[], ready: readonly string[]): string {
  const gap = tx.state.settings.earlyTickGapMinutes;
  return `${list(ready.map((u) => shownName(tx, u)).sort(), 'nobody yet')} (${ready.length} of ${active.length})${gap > 0 ? `. Early ticks are on: when all are ready the tick comes, at least ${gap} minutes after the last one.` : ''}`;
}

/** Why the campaign is paused and when it resumes by itself (when a reason or a time is known). */
function pausedFields(tx: CampaignTx): CardField[] {
  const { resumeAt, pauseReason } = tx.meta;
  if (tx.state.status !== 'paused' || (resumeAt === null && pauseReason === null)) return [];
  return [{ name: 'Paused', value: `${pauseReason !== null ? literal(pauseReason) : 'no reason given'}${resumeAt ? `; resumes by itself ${discordTime(resumeAt)} (${discordTime(resumeAt, 'R')})` : ''}.` }];
}

/** One line for the armies nobody commands: how many, and what they do (in fog, no word of the referee's orders). */
function nobodyCommandsFields(s: CampaignState, unassigned: readonly Army[], fog: boolean): CardField[] {
  if (unassigned.length === 0) return [];
  const given = fog ? 0 : unassigned.filter((a) => s.orders[a.id]).length;
  const they = fog ? `follow the referee's orders, or ${s.settings.defaultOrder}` : given === unassigned.length ? 'follow them' : `will ${s.settings.defaultOrder}`;
  return [{ name: 'Nobody commands', value: `${unassigned.length} arm${unassigned.length === 1 ? 'y' : 'ies'}${given > 0 ? ` (${given} with orders from the referee)` : ''}: they ${they}. \`/campaign status\` lists them.` }];
}

/** The referee is told privately which armies fog of war keeps counted though destroyed. */
function refereeFogNote(tx: CampaignTx, gone: readonly Army[]): Reply[] {
  if (!tx.isReferee || gone.length === 0) return [];
  return [ephemeral(`Referee only: fog of war keeps ${list(gone.map((a) => a.name).sort(), '')} counted above: ${gone.length === 1 ? 'it was' : 'they were'} destroyed out of the other sides' sight.`, { destroyed: gone.map((a) => a.id) })];
}
