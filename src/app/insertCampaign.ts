import type { EngineEvent } from '../engine/events/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { CampaignState } from '../engine/state/index.js';
import { STATE_VERSION } from '../engine/campaign/index.js';
import { writeTransaction } from '../db/client.js';
import { findCampaignInChannel, insertCampaign, type CampaignMeta } from '../db/campaignRepo.js';
import { appendEvents } from '../db/eventRepo.js';
import type { App } from './app.js';
import type { Outgoing } from './deliveries/outgoing.js';
import { UserError } from './errors.js';
import { journalCreated } from './journal/record.js';
import { queueOutgoing } from './queueOutgoing.js';

/** A brand-new campaign and what it announces, written in one transaction (refused if the channel already has one). */
export function insertNewCampaign(app: App, input: {
  meta: Pick<CampaignMeta, 'guildId' | 'channelId' | 'ownerUserId' | 'createdAt'>;
  state: CampaignState;
  scenario: ScenarioDoc;
  actorUserId: string;
  events: readonly EngineEvent[];
  outbox: readonly Outgoing[];
}): void {
  const db = app.db;
  writeTransaction(db, () => {
    if (findCampaignInChannel(db, input.meta.guildId, input.meta.channelId)) {
      throw new UserError('campaign.exists', 'This channel already has a campaign. Use another channel, or `/campaign delete` the old one first.');
    }
    insertCampaign(db, input.meta, input.state, input.scenario, STATE_VERSION);
    journalCreated(db, input.state, input.meta.createdAt);
    appendEvents(db, input.state.id, input.state.clock, input.actorUserId, input.events, input.meta.createdAt);
    for (const o of input.outbox) queueOutgoing(db, { id: input.state.id, channelId: input.meta.channelId }, o, input.meta.createdAt);
  });
}
