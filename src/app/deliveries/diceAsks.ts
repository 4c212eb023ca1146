import { escapeName } from '../../engine/events/index.js';
import type { ManualDiceState, ManualRollRequest } from '../../engine/dice/index.js';
import type { CampaignTx } from '../campaignTx.js';
import { commandersOf } from '../members.js';
import type { MessageButton } from '../messages.js';
import { refereeIds } from '../referees.js';
import { deliver, REFEREE_ONLY, secretOf } from './audience.js';
import type { Outgoing } from './outgoing.js';

/** A button's custom id: `dice:<campaignId>:<request id>:<value>`. */
function diceButtonId(campaignId: string, requestId: string, value: number): string {
  return ['dice', campaignId, requestId, String(value)].join(':');
}

export function parseDiceButton(customId: string): { campaignId: string; requestId: string; value: number } | undefined {
  const [prefix, campaignId, requestId, value] = customId.split(':');
  if (prefix !== 'dice' || !campaignId || !requestId || value === undefined || !/^\d+$/.test(value)) return undefined;
  return { campaignId, requestId, value: Number(value) };
}

/** Discord carries at most 25 buttons on a message: a die with more faces is entered by command. */
const MAX_BUTTONS = 25;

/** Who is asked for a roll: its army's commanders (the referee when it has none), or the referee. */
function askedUsers(tx: Pick<CampaignTx, 'meta' | 'members'>, r: ManualRollRequest): string[] {
  const commanders = r.army !== undefined ? commandersOf(tx, r.army) : [];
  return commanders.length > 0 ? commanders : refereeIds(tx.meta, tx.members);
}

/** A message carries the buttons of at most this many rolls (six faces each: four rows). */
const ROLLS_WITH_BUTTONS = 4;

function buttonsFor(campaignId: string, rolls: readonly ManualRollRequest[]): MessageButton[] {
  const pressable = rolls.filter((r) => r.sides <= 6 || (rolls.length === 1 && r.sides <= MAX_BUTTONS)).slice(0, ROLLS_WITH_BUTTONS);
  return pressable.flatMap((r) => Array.from({ length: r.sides }, (_, i): MessageButton => ({
    id: diceButtonId(campaignId, r.id, i + 1), label: rolls.length === 1 ? String(i + 1) : `${r.id}: ${i + 1}`, style: 'secondary',
  })));
}

/**
 * The DMs that ask for the manual rolls requested between two states: one to each person who
 * rolls some (the commander whose army rolls them, or the referee), listing them with a button per
 * face (for up to four dice) and the command form, and what happens if nobody answers.
 * @see docs/rulings.md (Manual dice)
 */
export function diceAsks(tx: Pick<CampaignTx, 'meta' | 'members' | 'state'>, before: ManualDiceState, after: ManualDiceState): Outgoing[] {
  const known = new Set(before.requests.map((r) => r.id));
  const byUser = new Map<string, ManualRollRequest[]>();
  for (const r of after.requests) {
    if (known.has(r.id)) continue;
    for (const userId of askedUsers(tx, r)) byUser.set(userId, [...(byUser.get(userId) ?? []), r]);
  }
  return [...byUser].flatMap(([userId, rolls]): Outgoing[] => {
    const first = rolls[0] as ManualRollRequest;
    const who = first.army !== undefined && rolls.every((r) => r.army === first.army) ? `**${tx.state.armies[first.army]?.name ?? first.army}**` : '**Referee**';
    const buttons = buttonsFor(tx.meta.id, rolls);
    const contacts = [...new Set(rolls.flatMap((r) => (r.contactId !== undefined ? [r.contactId] : [])))];
    const waits = contacts.length > 0 ? `Contact ${contacts.join(', ')} waits for ${rolls.length === 1 ? 'it' : 'them'} until the next tick` : `The next tick needs ${rolls.length === 1 ? 'it' : 'them'}`;
    const lines = rolls.map((r) => `- roll **${r.id}**: a d${r.sides} for ${r.purpose}`);
    const content = [
      `${who} (${escapeName(tx.state.name)}) Manual dice: roll ${rolls.length === 1 ? 'this die' : 'these dice'} and ${buttons.length > 0 ? 'press what you rolled, or ' : ''}enter ${rolls.length === 1 ? 'it' : 'each'} with \`/dice enter roll:ID value:N\` in the campaign channel.`,
      ...lines,
      `${waits}; a die not entered by then is the bot's seeded die.`,
    ].join('\n');
    // An army's rolls are its commanders' secret; the others the referee's.
    const subject = rolls.every((r) => r.army !== undefined) ? secretOf(rolls.flatMap((r) => (r.army !== undefined ? [r.army] : []))) : REFEREE_ONLY;
    return deliver(tx, { user: userId }, subject, { content, data: { type: 'diceAsked', requests: rolls }, buttons });
  });
}
