import { type EngineEvent, escapeName, PUBLIC } from '../../engine/events/index.js';
import type { App } from '../app.js';
import { deliver, REFEREE_ONLY } from '../deliveries/audience.js';
import type { ChannelFault } from '../journal/invocation.js';
import type { CampaignTx, Change } from '../campaignTx.js';
import type { Outgoing } from '../deliveries/outgoing.js';
import { inCampaign } from '../unitOfWork.js';

/**
 * A running campaign whose channel refused a post for good (gone, a permission missing, a refusal
 * the permissions do not explain): paused rather than played on unseen, everyone told why and the
 * referees what to fix. The delivery loop's part of giving up a channel post (src/app/outbox.ts).
 */
export function channelFaultPause(tx: CampaignTx, fault: ChannelFault): Required<Pick<Change<undefined>, 'state' | 'control'>> & { events: EngineEvent[]; outbox: Outgoing[] } {
  const { permission, held, reason } = fault;
  const channel = `<#${tx.meta.channelId}>`;
  const after = 'then use `/campaign resume`: it sends again every post the fault held (`/referee inbox` lists them).';
  const text = permission
    ? `The campaign **${escapeName(tx.state.name)}** is paused: I lack the **${permission}** permission in its channel ${channel}${permission === 'Attach Files' ? ', so the map cannot be attached to the chronicle' : ''}. Give it to me there (channel settings, Permissions, my role), ${after}`
    : held
      ? `The campaign **${escapeName(tx.state.name)}** is paused: Discord refused a post in its channel ${channel} for missing permissions, yet the permissions I hold there read complete (${held.join(', ')}). Something outside the channel's permissions blocks me: look for a timeout on my member, an AutoMod rule, or a locked or archived thread. When it is lifted, ${after}`
      : `The campaign **${escapeName(tx.state.name)}** is paused: I cannot post in its channel ${channel} (${reason.slice(0, 200)}). If the channel still exists, give me access to it again (channel settings, Permissions, my role), ${after}`;
  const why = permission ? { reason: 'missingPermission', permission } : held ? { reason: 'refusedUnexplained' } : { reason: 'channelLost' };
  return {
    state: { ...tx.state, status: 'paused' },
    control: { nextTickAt: null, remindAt: null },
    events: [{ type: 'campaignPaused', audience: PUBLIC, text, data: why }],
    outbox: deliver(tx, 'referees', REFEREE_ONLY, { content: `**Referee** (${escapeName(tx.state.name)})\n${text}`, data: { campaignPaused: tx.meta.id, ...why } }),
  };
}

/** Replay of a channel fault (docs/replay.md): the pause it made, on the replayed campaign. */
export function replayChannelFault(app: App, campaignId: string, fault: ChannelFault): void {
  inCampaign(app, { campaignId }, (tx) => (tx.state.status === 'running' ? { ...channelFaultPause(tx, fault), result: undefined } : { result: undefined }));
}
