import type { OutboxRow } from '../db/outboxRepo.js';
import { type EngineEvent, REFEREE } from '../engine/events/index.js';
import type { App } from './app.js';
import { channelFaultPause } from './campaign/channelFault.js';
import { deliver, OPEN, REFEREE_ONLY } from './deliveries/audience.js';
import { dmTestRefused, isDmTest } from './deliveries/dmTest.js';
import type { Outgoing } from './deliveries/outgoing.js';
import { withOwnInvocation, type ChannelFault } from './journal/invocation.js';
import { CHANNEL_FAULT } from './referee/heldMessages.js';
import { inCampaign } from './unitOfWork.js';
import { shownName } from './members.js';

/**
 * Records a delivery that will not happen, in one transaction with what it implies:
 * - dmClosed: the user does not accept DMs. The message is kept (readable with /intel), the
 *   channel is told without the content, the referee gets the list;
 * - failed (given up after MAX_ATTEMPTS, or a target that is gone): kept for the referee; a lost
 *   campaign channel pauses the campaign.
 */
export function giveUp(app: App, row: OutboxRow, owner: string, status: 'dmClosed' | 'failed', reason: string, lostChannel: boolean, fault: { permission?: string | undefined; held?: readonly string[] | undefined } = {}): void {
  const { permission, held } = fault;
  const pauseFor: ChannelFault = { reason, ...(permission !== undefined ? { permission } : {}), ...(held !== undefined ? { held } : {}) };
  const run = (): void => inCampaign(app, { campaignId: row.campaignId }, (tx) => {
    const now = tx.now;
    const slot = Math.floor(now.getTime() / 600_000);
    const outbox: Outgoing[] = [];
    const events: EngineEvent[] = [{ type: status === 'dmClosed' ? 'dmUndeliverable' : 'deliveryFailed', audience: REFEREE, text: `Delivery ${status === 'dmClosed' ? 'refused (closed DMs)' : 'failed'}: message ${row.id} to ${row.userId ?? row.channelId ?? '?'}: ${reason}`, data: { outboxId: row.id } }];
    if (status === 'dmClosed' && row.userId) {
      const who = shownName(tx, row.userId);
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
      const pause = channelFaultPause(tx, pauseFor);
      return { ...pause, events: [...events, ...pause.events], outbox: [...outbox, ...pause.outbox], undeliverable, result: undefined };
    }
    return { events, outbox, undeliverable, result: undefined };
  });
  // A pause for a lost channel is the delivery loop's own change: journalled as such (docs/replay.md).
  if (lostChannel) withOwnInvocation({ kind: 'channelFault', campaignId: row.campaignId, fault: pauseFor }, run);
  else run();
}
