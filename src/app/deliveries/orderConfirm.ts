import { escapeName } from '../../engine/events/index.js';
import { formatGameTime } from '../../engine/clock/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { CampaignTx } from '../campaignTx.js';
import type { Reply } from '../messages.js';
import { noticesOf } from '../notices.js';
import { deliver, secretOf } from './audience.js';
import type { Outgoing } from './outgoing.js';

/** The longest part of the command's answer the confirmation repeats. */
const MAX_ECHO = 1_500;

const isReplies = (r: unknown): r is readonly Reply[] =>
  Array.isArray(r) && r.every((x: unknown) => typeof x === 'object' && x !== null && 'to' in x && 'content' in x);

/**
 * The DM confirming that a commander's orders are stored, for those who asked for it
 * (`/notify order-confirm:true`): sent when a command of theirs changed the standing order of an
 * army they command. It repeats the command's answer, which only they saw. Audience: the secrets
 * of those armies (the commander who gave the order reads them; nobody else is addressed).
 */
export function orderConfirmations(tx: CampaignTx, before: CampaignState, after: CampaignState, result: unknown): Outgoing[] {
  const userId = tx.actor?.userId;
  if (userId === undefined || before.orders === after.orders) return [];
  const mine = tx.members.filter((m) => m.role === 'commander' && m.userId === userId).map((m) => m.armyId);
  const changed = mine.filter((id) => before.orders[id] !== after.orders[id] && after.armies[id] !== undefined);
  if (changed.length === 0 || !noticesOf(tx, userId).orderConfirm) return [];
  const names = changed.map((id) => `**${after.armies[id]?.name ?? id}**`).join(', ');
  const answer = isReplies(result) ? result.map((r) => r.content).join('\n').trim() : '';
  const echo = answer.length > MAX_ECHO ? `${answer.slice(0, MAX_ECHO - 1)}…` : answer;
  return deliver(tx, { user: userId }, secretOf(changed), {
    content: `**Orders stored** (${escapeName(after.name)}, ${formatGameTime(after.clock)}): ${names}.${echo ? `\n${echo}` : ''}\n-# \`/notify order-confirm:false\` stops these.`,
    data: { type: 'orderConfirmed', armies: changed },
  });
}
