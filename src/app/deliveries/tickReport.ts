import { escapeName } from '../../engine/events/index.js';
import type { EngineEvent } from '../../engine/events/index.js';
import type { Card, MessageButton } from '../messages.js';
import type { TickReportChoice } from '../notices.js';
import { deliver, secretOf, type AudienceTx } from './audience.js';
import { armyCard } from './cards.js';
import type { Outgoing } from './outgoing.js';

/** What the tick report needs besides the events: each person's choice and where an army stands. */
export interface TickReportOptions {
  /** The person's `/notify tick-report:` choice (default `changes`). */
  readonly choice: (userId: string) => TickReportChoice;
  /** Where an army of theirs stands now, as its commander reads it ("1116"). */
  readonly where: (armyId: string) => string;
}

/**
 * What the rules ask of a commander, which comes whatever they chose for the report: a contact's
 * questions, estimates, scouts and terrain cards (everything about a contact), and the answer asked.
 */
const isQuestion = (e: EngineEvent): boolean => e.type === 'contactPrompt' || typeof e.data?.contactId === 'string';

/**
 * Each commander's own tick report: after a tick, ONE DM per commander, whatever number of armies
 * they command, with a card per army it concerns. The card says, order by order, what became of
 * the army and why, in the engine's own sentences for that army's facts (the march with the points
 * left and where and why it stopped, a contact met and the answer asked by the deadline, crossings,
 * fatigue, stragglers, losses), and carries the contact's buttons.
 *
 * Audience: the commanders of the armies it is about, and nobody else (`secretOf` those armies:
 * the facts are their own army's, told to it). Built from the events the engine addressed to each
 * army, never from the state of another army.
 *
 * Each person's `/notify tick-report:` choice: `changes` (the default) is silent when nothing
 * happened to their armies; `always` sends a short card even then (where each army stands);
 * `never` sends no report, but a contact's questions still come (they are what the rules ask of
 * the commander, not the report).
 */
export function tickReports(
  tx: AudienceTx,
  byArmy: ReadonlyMap<string, readonly EngineEvent[]>,
  opts: TickReportOptions & {
    readonly when?: string;
    readonly buttons?: ReadonlyMap<string, readonly MessageButton[]>;
    readonly armyCards?: ReadonlyMap<string, readonly Card[]>;
  },
): Outgoing[] {
  const out: Outgoing[] = [];
  const users = [...new Set(tx.members.filter((m) => m.role === 'commander').map((m) => m.userId))];
  for (const userId of users) {
    const choice = opts.choice(userId);
    const armies = tx.members.filter((m) => m.role === 'commander' && m.userId === userId).map((m) => m.armyId)
      .filter((id) => byArmy.has(id) || opts.armyCards?.has(id) === true || tx.state.armies[id]?.status.destroyed === false);
    const cards: Card[] = [];
    const buttons: MessageButton[] = [];
    const about: string[] = [];
    const events: { type: string; data: unknown }[] = [];
    for (const armyId of armies) {
      const all = byArmy.get(armyId) ?? [];
      const told = choice === 'never' ? all.filter(isQuestion) : all;
      const extra = opts.armyCards?.get(armyId) ?? [];
      if (told.length === 0 && extra.length === 0) continue;
      about.push(armyId);
      const card = armyCard(tx.state, armyId, told, opts.when);
      // Titled as the report it is, unless a contact titles it.
      cards.push(opts.when && card.title === opts.when ? { ...card, title: `Tick report: ${opts.when}` } : card, ...extra);
      buttons.push(...(opts.buttons?.get(armyId) ?? []));
      events.push(...told.map((e) => ({ type: e.type, data: e.data })));
    }
    if (about.length === 0 && choice === 'always' && armies.length > 0) {
      // Asked for a report after every tick: where each army stands, when nothing happened to it.
      const lines = armies.map((id) => `${tx.state.armies[id]?.name ?? id} stands at ${opts.where(id)}: nothing happened to it this half period.`);
      cards.push({ title: opts.when ? `Tick report: ${opts.when}` : 'Tick report', description: lines.join('\n'), footer: '`/notify tick-report:changes` keeps this report for the ticks in which something happens.' });
      about.push(...armies);
    }
    if (about.length === 0) continue;
    const names = about.map((id) => tx.state.armies[id]?.name ?? id);
    const content = `**${[...new Set(names)].join('** and **')}** (${escapeName(tx.state.name)})`;
    out.push(...deliver(tx, { user: userId }, secretOf(about), { content, cards, data: { armyIds: about, ...(about.length === 1 ? { armyId: about[0] } : {}), events }, buttons }));
  }
  return out;
}
