import { regimentFigures, regimentStrength, troopFigures, type Army } from '../../engine/forces/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { CampaignState, Order } from '../../engine/state/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../session.js';
import { movementStatus } from '../movement/marchLines.js';
import { scoutsLine } from '../contact/scouts.js';

/** The full private picture of one's own army. */
function describeArmy(state: CampaignState, map: MapModel, army: Army): { text: string; data: Record<string, unknown> } {
  const terrain = map.terrainAt(army.hex) ?? 'unknown';
  const river = map.riverAt(army.hex);
  const where = `${map.format(army.hex)} (${terrain}${river ? `, ${river.size} river ${river.riverName}${army.bank ? `, ${army.bank} bank` : ''}` : ''})`;
  const regiments = army.regiments.map((r) => ({
    id: r.id, name: r.name, role: r.role, figures: regimentFigures(r), originalFigures: r.originalFigures, strength: regimentStrength(r),
    companies: r.companies.map((c) => `${c.figures} ${c.troopType}`).join(', '),
  }));
  const order = state.orders[army.id];
  const movement = movementStatus(state, map, army);
  const lines = [
    `**${army.name}** — ${army.commander} (${state.sides[army.side]?.name ?? army.side})`,
    `At ${where}${army.status.inContact ? '; in contact' : ''}${army.status.inBattle ? '; in battle' : ''}.`,
    `Moves as ${army.movementClass}${army.flying ? ' (flying)' : ''}, ${movement.data.rate} points a day${movement.data.tireless ? ', tireless' : ''}; sight ${army.sight}${army.nocturnal ? ', nocturnal (marches by night)' : ''}.`,
    ...movement.lines,
    `Troop figures: ${troopFigures(army)} (${troopFigures(army) * 40} troops).`,
    ...regiments.map((r) => `- ${r.role}: ${r.name} — ${r.figures}/${r.originalFigures} figures (${r.strength}%): ${r.companies}`),
    ...(army.individuals.length > 0 ? [`Individuals: ${army.individuals.map((i) => `${i.name} (${i.kind})`).join(', ')}.`] : []),
    ...(Object.entries(army.vessels).some(([, n]) => n > 0) ? [`Vessels: ${Object.entries(army.vessels).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ')}.`] : []),
    scoutsLine(army.scouts),
    `Order: ${order ? orderSummary(order, map) : 'none'}.`,
  ];
  return {
    text: lines.join('\n'),
    data: { armyId: army.id, hex: map.format(army.hex), terrain, formation: army.formation, status: army.status, march: army.march, movement: movement.data, regiments, individuals: army.individuals, vessels: army.vessels, order: order ?? null },
  };
}

/** `/army status`: ephemeral, for the army's commander (or the referee). */
export function armyStatus(app: App, actor: Actor, armyRef: string | undefined): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army } = requireControl(tx, armyRef);
    const d = describeArmy(tx.state, tx.map, army);
    return { result: [ephemeral(d.text, d.data)] };
  });
}

/** A standing order in a few words: its kind, the hexes still to go, and a march's period. */
function orderSummary(order: Order, map: MapModel): string {
  const path = order.kind === 'move' || order.kind === 'sail' ? order.path : [];
  const via = path.length > 0 ? ` via ${path.map((h) => map.format(h)).join(' ')}` : '';
  return `${order.kind}${via}${order.kind === 'move' ? ` (${order.period})` : ''}`;
}
