import { formatGameTime, fromIndex } from '../../engine/clock/index.js';
import { regimentFigures, regimentStrength, troopFigures, type Army } from '../../engine/forces/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { Hex } from '../../engine/hex/index.js';
import type { Order } from '../../engine/state/index.js';
import { awaitedRegiments, describeVessels } from '../../engine/water/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { sideColour } from '../deliveries/cards.js';
import { ephemeral, withCards, type Card, type CardField, type Reply } from '../messages.js';
import { readCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';
import { movementStatus } from '../movement/marchLines.js';
import { voyageSchedule } from '../water/voyage.js';
import { scoutsLine } from '../contact/scouts.js';

const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Where the army is: on land (terrain, river bank, place), or aboard ship (which vessels, where, whither). */
function whereField(tx: CampaignTx, army: Army): CardField {
  const map = tx.map;
  const hex = map.format(army.hex);
  const terrain = (map.terrainAt(army.hex) ?? 'unknown').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const river = map.riverAt(army.hex);
  const place = map.townAt(army.hex) ?? map.fortificationAt(army.hex)?.name ?? map.portAt(army.hex);
  const flags = [army.status.inContact ? 'in contact' : '', army.status.inBattle ? 'in battle' : ''].filter(Boolean).join(', ');
  const order = tx.state.orders[army.id];
  if (army.status.embarked) {
    const fleet = order?.kind === 'sail' ? order.fleet : undefined;
    const vessels = describeVessels(fleet?.vessels ?? army.vessels);
    const voyage = voyageSchedule(tx, army.id);
    const whither = order?.kind === 'sail' && order.path.length > 0
      ? `Sailing to ${map.format(order.path[order.path.length - 1] ?? army.hex)}${voyage?.arrives ? `, arriving ${formatGameTime(voyage.arrives)} at the current weather` : ', as the weather allows'}; then land with \`/debark\`.`
      : 'At anchor: give a voyage with `/sail`, or land with `/debark`.';
    return { name: 'Aboard ship', value: `Aboard ${vessels} at ${hex}${place ? ` (${place})` : ''}${flags ? `; ${flags}` : ''}.\n${whither}` };
  }
  const bank = river && army.bank ? `, ${army.bank} bank` : '';
  const riverText = river ? `, ${river.size} river ${river.riverName}${bank}` : '';
  return { name: 'Where', value: `${hex}${place ? ` (${place})` : ''}: ${terrain}${riverText}${flags ? `; ${flags}` : ''}.` };
}

/** Each regiment with its figures, strength and role, and where it is when the army is split by the sea. */
function regimentLines(tx: CampaignTx, army: Army): string[] {
  const order = tx.state.orders[army.id];
  const fleet = army.status.embarked && order?.kind === 'sail' ? order.fleet : undefined;
  const assembly = awaitedRegiments(tx.state, army.id);
  const atSea = new Map<string, number>();
  for (const b of assembly?.batches ?? []) for (const r of b.regiments) atSea.set(r, b.arrivesAt);
  return army.regiments.map((r) => {
    const companies = r.companies.map((c) => `${c.figures} ${c.troopType}`).join(', ');
    let where = '';
    if (fleet?.ashore.includes(r.id)) where = ` (ashore at ${fleet.embarkedFrom || 'the embarkation hex'}: follows by shuttle after you land)`;
    else if (fleet) where = ' (aboard)';
    const lands = atSea.get(r.id);
    if (lands !== undefined) where = ` (at sea: lands ${formatGameTime(fromIndex(lands))})`;
    return `${r.role}: ${r.name}: ${regimentFigures(r)}/${r.originalFigures} figures (${regimentStrength(r)}%): ${companies}${where}`;
  });
}

/** ", via A B": the hexes of a path before its destination; nothing when the next hex is the destination. */
function via(path: readonly Hex[], map: MapModel): string {
  return path.length > 1 ? `, via ${path.slice(0, -1).map((h) => map.format(h)).join(' ')}` : '';
}

/** A standing order in words: what, whither, when. */
function orderWords(order: Order | undefined, map: MapModel, defaultOrder: string): string {
  if (!order) return `none: without one, it will ${defaultOrder}.`;
  switch (order.kind) {
    case 'move': {
      const to = order.path[order.path.length - 1];
      const how = [order.forced ? 'forced march' : '', order.unformed ? 'unformed' : '', order.save ? 'saving points' : ''].filter(Boolean).join(', ');
      return `march ${order.period === 'split' ? 'by day and night' : `by ${order.period}`}${how ? ` (${how})` : ''}${to ? ` to ${map.format(to)}${via(order.path, map)}` : ''}.`;
    }
    case 'sail':
      return order.path.length > 0 ? `sail to ${map.format(order.path[order.path.length - 1]!)}${via(order.path, map)}.` : 'at anchor.';
    case 'debark':
      return `wait at ${order.assembly.port} for the regiments still at sea; it marches once all are ashore.`;
    case 'rest':
      return 'rest.';
  }
}

/** `/army status` as a card: the full private picture of one's own army. */
export function statusCard(tx: CampaignTx, army: Army): { card: Card; data: Record<string, unknown> } {
  const s = tx.state;
  const map = tx.map;
  const movement = movementStatus(s, map, army);
  const assembly = awaitedRegiments(s, army.id);
  const figures = troopFigures(army);
  const individuals = army.individuals.map((i) => `${i.name} (${i.kind})`).join(', ');
  const ownVessels = Object.values(army.vessels).some((n) => n > 0) ? describeVessels(army.vessels) : '';
  const fields: CardField[] = [
    whereField(tx, army),
    { name: 'Moves', value: `${army.movementClass}${army.flying ? ' (flying)' : ''}, ${movement.data.rate} points a day${movement.data.tireless ? ', tireless' : ''}; sight ${army.sight}${army.nocturnal ? ', nocturnal (marches by night)' : ''}.`, inline: true },
    // An army of individuals alone (Anax Archontas: the dragon, no regiment) has no troops to count.
    { name: 'Troops', value: army.regiments.length === 0 ? 'none: no regiments; its individuals are the army' : `${figures} figures (${thousands(figures * 40)} troops)`, inline: true },
    {
      name: 'March',
      value: army.status.embarked
        ? 'Aboard ship: no march (a full day in a troop transport counts as rest).'
        : [...movement.lines, ...(assembly ? [`Waiting at ${assembly.port} for regiments still at sea: it may not march until they are all ashore.`] : [])].join('\n'),
    },
    { name: 'Regiments', value: army.regiments.length === 0 ? 'none.' : regimentLines(tx, army).join('\n') },
    ...(individuals ? [{ name: 'Individuals', value: individuals }] : []),
    ...(ownVessels && !army.status.embarked ? [{ name: 'Vessels', value: ownVessels, inline: true }] : []),
    // Said as /scouts says it.
    { name: 'Scouts', value: scoutsLine(army.scouts).replace(/^Scouts: /, '') },
    { name: 'Order', value: orderWords(s.orders[army.id], map, s.settings.defaultOrder) },
  ];
  const colour = sideColour(s, army.id);
  const card: Card = { title: `${army.name}: ${army.commander}`, ...(colour ? { colour } : {}), description: `${s.sides[army.side]?.name ?? army.side}. ${formatGameTime(s.clock)}.`, fields };
  const regiments = army.regiments.map((r) => ({
    id: r.id, name: r.name, role: r.role, figures: regimentFigures(r), originalFigures: r.originalFigures, strength: regimentStrength(r),
    companies: r.companies.map((c) => `${c.figures} ${c.troopType}`).join(', '),
  }));
  const order = s.orders[army.id];
  return {
    card,
    data: { armyId: army.id, hex: map.format(army.hex), terrain: map.terrainAt(army.hex) ?? 'unknown', formation: army.formation, status: army.status, march: army.march, movement: movement.data, regiments, individuals: army.individuals, vessels: army.vessels, scouts: { deployed: army.scouts }, order: order ?? null },
  };
}

/** `/army status`: ephemeral, for the army's commander (or the referee). */
export function armyStatus(app: App, actor: Actor, armyRef: string | undefined): Reply[] {
  return readCampaign(app, { actor }, (tx) => {
    const { army } = requireControl(tx, armyRef);
    const { card, data } = statusCard(tx, army);
    const where = army.status.embarked ? 'aboard ship' : `at ${tx.map.format(army.hex)}`;
    return [withCards(ephemeral(`**${army.name}**, ${where}${army.status.inContact ? ', in contact' : ''}${army.status.inBattle ? ', in battle' : ''}.`, data), [card])];
  });
}
