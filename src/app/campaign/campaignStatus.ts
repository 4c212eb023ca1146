import { escapeName } from '../../engine/events/index.js';
import { isHostile, troopFigures } from '../../engine/forces/index.js';
import { isFog } from '../../engine/knowledge/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { discordTime, gameTimeLabel } from '../format.js';
import { ephemeral, reply, withCards, type Card, type Reply } from '../messages.js';
import { readCampaign } from '../unitOfWork.js';
import { shownName } from '../members.js';

/**
 * The public state of the campaign: time, status, sides and armies with their commanders (no
 * strengths; in fog of war, no positions), as a card per side in the side's colour. Armies nobody
 * commands are listed in one line per side. The referee also gets every army's figures, privately.
 * After `/campaign end` it reads the campaign that ended in the channel (read only, as the export
 * and `/dice verify` do), until a new campaign is created there.
 */
export function campaignStatus(app: App, actor: Actor): Reply[] {
  return readCampaign(app, { actor, orEnded: true }, (tx) => {
    const s = tx.state;
    // In fog of war the public status names no position (the referee's map has them).
    const where = (a: { hex: Parameters<typeof tx.map.format>[0] }): string | undefined => (isFog(s) ? undefined : tx.map.format(a.hex));
    const at = (a: { hex: Parameters<typeof tx.map.format>[0] }, form: (hex: string) => string): string => { const w = where(a); return w ? form(w) : ''; };
    const commanders = (armyId: string) => tx.members.filter((m) => m.role === 'commander' && m.armyId === armyId);
    const commander = (armyId: string): string => commanders(armyId).map((m) => m.displayName || m.userId).join(' & ');
    // As the cards write them: escaped.
    const shownCommander = (armyId: string): string => commanders(armyId).map((m) => shownName(tx, m.userId)).join(' & ');
    const next = tx.meta.nextTickAt ? `${discordTime(tx.meta.nextTickAt)} (${discordTime(tx.meta.nextTickAt, 'R')})` : 'not scheduled';
    const open = Object.values(s.contacts).filter((c) => c.step !== 'closed').length;
    const overview: Card = {
      title: `${escapeName(s.name)}: ${gameTimeLabel(s)}`,
      description: `The campaign is ${s.status}.`,
      // In fog of war how many contacts are open would tell of armies nobody sees.
      fields: [{ name: 'Next tick', value: next, inline: true }, ...(isFog(s) ? [] : [{ name: 'Open contacts', value: String(open), inline: true }])],
    };
    const sides = Object.values(s.sides).map((side): Card => {
      // In fog of war an army destroyed out of sight is not known to be gone: it stays listed.
      const armies = Object.values(s.armies).filter((a) => a.side === side.id && (isFog(s) || !a.status.destroyed));
      const foes = Object.values(s.sides).filter((o) => isHostile(s.sides, side.id, o.id)).map((o) => o.name);
      const commanded = armies.filter((a) => commander(a.id));
      const free = armies.filter((a) => !commander(a.id));
      return {
        title: side.name,
        colour: side.colour,
        description: `Hostile to ${foes.join(', ') || 'nobody'}.`,
        fields: [
          ...(commanded.length > 0 ? [{ name: 'Commanded', value: commanded.map((a) => `${a.name} (\`${a.id}\`)${at(a, (h) => ` at ${h}`)}: ${shownCommander(a.id)}`).join('\n') }] : []),
          ...(free.length > 0 ? [{ name: `Nobody commands (${free.length})`, value: free.map((a) => `${a.name}${at(a, (h) => ` (${h})`)}`).join(', ') }] : []),
        ],
      };
    });
    const data = {
      id: s.id, name: s.name, status: s.status, clock: s.clock, nextTickAt: tx.meta.nextTickAt,
      armies: Object.values(s.armies).map((a) => ({ id: a.id, name: a.name, side: a.side, ...(where(a) ? { hex: where(a) } : {}), commander: commander(a.id) || 'unassigned' })),
    };
    const out: Reply[] = [withCards(reply(`**${escapeName(s.name)}**: ${s.status}, ${gameTimeLabel(s)}.`, data), [overview, ...sides])];
    if (tx.isReferee) {
      // An army of individuals alone (Anax Archontas, the dragon) counts no troop figures: said so, not a bare 0.
      const truth = Object.values(s.armies).filter((a) => !a.status.destroyed)
        .map((a) => `${a.name}: ${troopFigures(a)}${a.regiments.length === 0 ? ` (no regiments: ${a.individuals.map((i) => i.name).join(', ') || 'nobody'})` : ''}`).join('\n');
      out.push(withCards(ephemeral('Referee only: the figures of every army.', { figures: Object.fromEntries(Object.values(s.armies).map((a) => [a.id, troopFigures(a)])) }), [{ title: 'Troop figures (referee only)', fields: [{ name: 'Army: figures', value: truth }] }]));
    }
    return out;
  });
}
