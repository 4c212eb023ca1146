import { escapeName } from '../../engine/events/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { CampaignTx } from '../campaignTx.js';
import { deliver, OPEN } from './audience.js';
import type { Outgoing } from './outgoing.js';

/*
 * DMs tested before they matter (issue 27, item 7): when a player is given an army and again when
 * the campaign starts, the bot sends them a short DM. If their DMs are closed, the delivery fails
 * at once and the channel is told, naming the player and the referee without pinging them, before
 * any secret (an estimate, a contact prompt) needs the DM.
 */

/** The marker a DM test carries in its data: the delivery reads it when Discord refuses the DM. */
const DM_TEST = 'dmTest';

/** Whether an outbox row's data marks it as a DM test. */
export function isDmTest(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === DM_TEST;
}

/** The DM a player gets when given an army: what they command, and that this is where secrets come. Nothing secret: OPEN. */
export function assignmentDm(tx: CampaignTx, userId: string, army: { id: string; name: string }): Outgoing[] {
  return deliver(tx, { user: userId }, OPEN, {
    content: `You command **${army.name}** (\`${army.id}\`) in the campaign **${escapeName(tx.state.name)}**. Try \`/army status army:${army.id}\` in the campaign channel.\nWhat only you may know (your army's secrets, contact prompts, reports) will come here by DM: if you can read this, they will reach you.`,
    data: { type: DM_TEST, armyId: army.id, campaignId: tx.meta.id, at: 'assign' },
  });
}

/** At `/campaign start`, one DM to each commander: the campaign has begun, and their armies. */
export function startDms(tx: CampaignTx, state: CampaignState): Outgoing[] {
  const byUser = new Map<string, string[]>();
  for (const m of tx.members) {
    const army = m.role === 'commander' ? state.armies[m.armyId] : undefined;
    if (army && !army.status.destroyed) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), `**${army.name}**`]);
  }
  return [...byUser].flatMap(([userId, armies]) => deliver(tx, { user: userId }, OPEN, {
    content: `The campaign **${escapeName(state.name)}** has started. You command ${armies.join(' and ')}. Your orders go in the campaign channel; your secrets, contact prompts and reports come here by DM.`,
    data: { type: DM_TEST, campaignId: tx.meta.id, at: 'start' },
  }));
}

/**
 * The channel's notice when a DM test is refused (closed DMs): it names the player and the referee
 * without pinging anyone (no mentions), says what to change and where the kept messages are read.
 */
export function dmTestRefused(tx: CampaignTx, userId: string, dedupeKey: string): Outgoing[] {
  const referees = [tx.meta.ownerUserId].filter((r) => r !== userId);
  return deliver(tx, 'channel', OPEN, {
    content: `DM test: I could not send a direct message to <@${userId}> (their DMs are closed).${referees.length > 0 ? ` Referee <@${referees[0]}>: their secrets will not reach them by DM.` : ''} <@${userId}>: allow direct messages from this server's members (the server's Privacy settings) before the first secret of the campaign needs it; until then, \`/intel\` here shows you privately what I could not send.`,
    data: { type: 'dmTestRefused', userId },
    dedupeKey,
  });
}
