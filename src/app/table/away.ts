import { escapeName, REFEREE } from '../../engine/events/index.js';
import type { Army } from '../../engine/forces/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { discordTime } from '../format.js';
import { ephemeral, type CardField, type Reply } from '../messages.js';
import { parseUntil } from '../schedule.js';
import { armiesOf, commandersOf, shownName } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';

/** The furthest ahead `/away until:` may say, in days. */
const MAX_AWAY_DAYS = 60;

const FOLLOWS = { rest: 'rests where it stands', hold: 'holds its position' } as const;

/**
 * `/away until:` (a commander): they will be away until then. Their armies are under standing
 * orders at once (each follows its plan, or the missed-orders default) without counting a miss
 * against them (`absent-after`); it ends by itself at that time (the first tick after it) or at
 * their next order. Only the referee is told (their digest and `/referee inbox`): the other players
 * do not learn who is away. @see docs/rulings.md (Absence)
 */
export function announceAway(app: App, actor: Actor, input: { until: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const s = tx.state;
    if (s.status === 'ended') throw new UserError('away.ended', 'The campaign has ended.');
    const mine = armiesOf(tx, actor.userId).map((id) => s.armies[id]).filter((a): a is Army => a !== undefined && !a.status.destroyed);
    if (mine.length === 0) throw new UserError('away.notCommander', 'Only a commander of an army in the field can say they are away; you command none in this campaign. (`/campaign status` lists who commands what.)');
    if (!input.until) throw new UserError('away.until', `Say until when: \`/away until:3d\`. \`until:\` takes a duration (\`12h\`, \`3d\`, \`2w\`), a date (\`2026-12-01\`) or a date and time (\`2026-12-01 18:00\`) in the campaign's timezone (${s.settings.timezone}), at most ${MAX_AWAY_DAYS} days ahead.`);
    const until = parseUntil(input.until, s.settings.timezone, tx.now, MAX_AWAY_DAYS, 'away.until').toISOString();
    const armies = { ...s.armies };
    for (const a of mine) armies[a.id] = { ...a, seat: { ...(a.seat ?? { missed: 0 }), missed: 0, standing: true, awayUntil: until } };
    const who = escapeName(actor.userName || actor.userId);
    const what = mine.map((a) => `**${a.name}** ${Object.hasOwn(s.plans, a.id) ? 'follows its plan' : FOLLOWS[s.settings.defaultOrder]}`).join('; ');
    return {
      state: { ...s, armies },
      events: [{ type: 'commanderAway', audience: REFEREE, text: `${who} is away until ${discordTime(until)}: ${what}. No absence is counted meanwhile; it ends then, or at their next order.`, data: { userId: actor.userId, until, armyIds: mine.map((a) => a.id) } }],
      result: [ephemeral(`You are away until ${discordTime(until)} (${discordTime(until, 'R')}): ${what} meanwhile, and no absence is counted against you. It ends by itself then, or at your next order. Only the referee is told.`, { until, armyIds: mine.map((a) => a.id) })],
    };
  });
}

/** The referee's view of the seats (`/referee inbox`): who is away, armies under standing orders, offers and substitutes. */
export function seatsField(tx: Pick<CampaignTx, 'members' | 'state'>): CardField | undefined {
  const name = (u: string): string => shownName(tx, u);
  const lines = Object.values(tx.state.armies).filter((a) => !a.status.destroyed && a.seat !== undefined).flatMap((a) => {
    const seat = a.seat;
    const who = commandersOf(tx, a.id).map(name).join(' and ');
    if (seat?.awayUntil) return [`${who} is away until ${discordTime(seat.awayUntil)}: **${a.name}** under standing orders.`];
    if (seat?.substitute) return [`**${a.name}**: ${name(seat.substitute.userId)} holds it as substitute (\`/seat give-back army:${a.id}\`).`];
    if (seat?.offer !== undefined) return [`**${a.name}**: its seat is offered (\`/seat withdraw army:${a.id}\`).`];
    if (seat?.standing && who) return [`**${a.name}**: ${who} is absent; under standing orders (\`/seat offer army:${a.id}\`).`];
    return [];
  });
  return lines.length > 0 ? { name: 'Seats', value: lines.join('\n') } : undefined;
}
