import type { OutboxRow } from '../db/outboxRepo.js';
import { type EngineEvent, PUBLIC, REFEREE } from '../engine/events/index.js';
import type { App } from './app.js';
import { deliver, OPEN, REFEREE_ONLY } from './deliveries/audience.js';
import { dmTestRefused, isDmTest } from './deliveries/dmTest.js';
import type { Outgoing } from './deliveries/outgoing.js';
import { CHANNEL_FAULT } from './referee/heldMessages.js';
import { inCampaign } from './unitOfWork.js';

/**
 * Records a delivery that will not happen, in one transaction with what it implies:
 * - dmClosed: the user does not accept DMs. The message is kept (readable with /intel), the
 *   channel is told without the content, the referee gets the list;
 * - failed (given up after MAX_ATTEMPTS, or a target that is gone): kept for the referee; a lost
 *   campaign channel pauses the campaign.
 */
export function giveUp(app: App, row: OutboxRow, owner: string, status: 'dmClosed' | 'failed', reason: string, lostChannel: boolean, fault: { permission?: string | undefined; held?: readonly string[] | undefined } = {}): void {
  const { permission, held } = fault;
  inCampaign(app, { campaignId: row.campaignId }, (tx) => {
    const now = tx.now;
    const slot = Math.floor(now.getTime() / 600_000);
    const outbox: Outgoing[] = [];
    const events: EngineEvent[] = [{ type: status === 'dmClosed' ? 'dmUndeliverable' : 'deliveryFailed', audience: REFEREE, text: `Delivery ${status === 'dmClosed' ? 'refused (closed DMs)' : 'failed'}: message ${row.id} to ${row.userId ?? row.channelId ?? '?'}: ${reason}`, data: { outboxId: row.id } }];
    if (status === 'dmClosed' && row.userId) {
      const who = tx.members.find((m) => m.userId === row.userId)?.displayName || row.userId;
      if (isDmTest(row.data)) {
        // A DM test (assign, start): the channel names the player and the referee, pinging nobody.
        outbox.push(...dmTestRefused(tx, row.userId, `dmTest:${row.userId}:${row.campaignId}:${slot}`));
      } else {
        outbox.push(...deliver(tx, 'channel', OPEN, {
          content: `<@${row.userId}>, I could not send you a direct message (your DMs are closed). Run \`/intel\` here to read it privately.`,
          data: { dmClosed: row.userId },
          mentions: [row.userId],
          dedupeKey: `dmClosed:${row.userId}:${row.campaignId}:${slot}`,
        }));
      }
      if (row.userId !== tx.meta.ownerUserId) {
        // One notice per player per ten minutes, like the channel's: a busy tick fails many DMs at once.
        outbox.push(...deliver(tx, { user: tx.meta.ownerUserId }, REFEREE_ONLY, { content: `Referee: a DM to ${who} could not be delivered (closed DMs). They were told to use /intel.`, data: { dmClosed: row.userId, outboxId: row.id }, dedupeKey: `dmClosedReferee:${row.userId}:${row.campaignId}:${slot}` }));
      }
    }
    // Another worker took the item over (this one's lease ran out): it settles it.
    if (!tx.read.claimedMessage(row.id, owner)) return { result: undefined };
    const undeliverable = { id: row.id, owner, status, attempts: row.attempts + 1, reason: lostChannel ? `${CHANNEL_FAULT}${reason}` : reason };
    if (lostChannel && tx.state.status === 'running') {
      // Nobody can read the chronicle or give orders there: paused rather than played on unseen.
      const channel = `<#${tx.meta.channelId}>`;
      const after = 'then use `/campaign resume`: it sends again every post the fault held (`/referee inbox` lists them).';
      const text = permission
        ? `The campaign **${tx.state.name}** is paused: I lack the **${permission}** permission in its channel ${channel}${permission === 'Attach Files' ? ', so the map cannot be attached to the chronicle' : ''}. Give it to me there (channel settings, Permissions, my role), ${after}`
        : held
          ? `The campaign **${tx.state.name}** is paused: Discord refused a post in its channel ${channel} for missing permissions, yet the permissions I hold there read complete (${held.join(', ')}). Something outside the channel's permissions blocks me: look for a timeout on my member, an AutoMod rule, or a locked or archived thread. When it is lifted, ${after}`
          : `The campaign **${tx.state.name}** is paused: I cannot post in its channel ${channel} (${reason.slice(0, 200)}). If the channel still exists, give me access to it again (channel settings, Permissions, my role), ${after}`;
      const why = permission ? { reason: 'missingPermission', permission } : held ? { reason: 'refusedUnexplained' } : { reason: 'channelLost' };
      events.push({ type: 'campaignPaused', audience: PUBLIC, text, data: why });
      outbox.push(...deliver(tx, 'referees', REFEREE_ONLY, { content: `**Referee** (${tx.state.name})\n${text}`, data: { campaignPaused: tx.meta.id, ...why } }));
      return { state: { ...tx.state, status: 'paused' }, control: { nextTickAt: null, remindAt: null }, events, outbox, undeliverable, result: undefined };
    }
    return { events, outbox, undeliverable, result: undefined };
  });
}
