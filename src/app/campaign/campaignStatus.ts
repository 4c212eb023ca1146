import { isHostile, troopFigures } from '../../engine/forces/index.js';
import { isFog } from '../../engine/knowledge/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { discordTime, gameTimeLabel } from '../format.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { inCampaign } from '../session.js';

/** The public state of the campaign: time, status, sides, armies and their commanders (no strengths; in fog of war, no positions). */
export function campaignStatus(app: App, actor: Actor): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const s = tx.state;
    // In fog of war the public status names no position (the referee's map has them).
    const where = (a: { hex: Parameters<typeof tx.map.format>[0] }): string | undefined => (isFog(s) ? undefined : tx.map.format(a.hex));
    const commander = (armyId: string): string => tx.members.filter((m) => m.role === 'commander' && m.armyId === armyId).map((m) => m.displayName || m.userId).join(' & ') || 'unassigned';
    const sides = Object.values(s.sides).map((side) => {
      const armies = Object.values(s.armies).filter((a) => a.side === side.id && !a.status.destroyed);
      const foes = Object.values(s.sides).filter((o) => isHostile(s.sides, side.id, o.id)).map((o) => o.name);
      return `**${side.name}** (hostile to ${foes.join(', ') || 'nobody'})\n${armies.map((a) => `- ${a.name} \`${a.id}\`${where(a) ? ` at ${where(a)}` : ''}: ${commander(a.id)}`).join('\n')}`;
    });
    const next = tx.meta.nextTickAt ? `Next tick ${discordTime(tx.meta.nextTickAt)} (${discordTime(tx.meta.nextTickAt, 'R')}).` : 'No tick scheduled.';
    const open = Object.values(s.contacts).filter((c) => c.step !== 'closed').length;
    const text = [
      `**${s.name}**: ${s.status}. ${gameTimeLabel(s)}. ${next}`,
      `Open contacts: ${open}.`,
      ...sides,
    ].join('\n');
    const data = {
      id: s.id, name: s.name, status: s.status, clock: s.clock, nextTickAt: tx.meta.nextTickAt,
      armies: Object.values(s.armies).map((a) => ({ id: a.id, name: a.name, side: a.side, ...(where(a) ? { hex: where(a) } : {}), commander: commander(a.id) })),
    };
    const out: Reply[] = [reply(text, data)];
    if (tx.isReferee) {
      const truth = Object.values(s.armies).map((a) => `${a.id}: ${troopFigures(a)} figures`).join(', ');
      out.push(ephemeral(`Referee only: ${truth}.`, { figures: Object.fromEntries(Object.values(s.armies).map((a) => [a.id, troopFigures(a)])) }));
    }
    return { result: out };
  });
}
