import { findCampaignInChannel } from '../db/campaignRepo.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import { distinctPlaces, placeLabel, placesNamed, placesOf } from './places.js';
import { readCampaign } from './unitOfWork.js';

export interface Choice {
  readonly name: string;
  readonly value: string;
}

type Where = Pick<Actor, 'userId' | 'guildId' | 'channelId' | 'roleIds'>;

/**
 * Armies to offer: the caller's own first, then (for the referee, or when `all`) every other
 * army. Read-only; no campaign yields none.
 */
export function armyChoices(app: App, where: Where, partial: string, opts: { all?: boolean } = {}): Choice[] {
  if (!findCampaignInChannel(app.db, where.guildId, where.channelId)) return [];
  return readCampaign(app, { actor: { ...where, userName: '' } }, (c) => {
    const mine = new Set(c.members.filter((m) => m.role === 'commander' && m.userId === where.userId).map((m) => m.armyId));
    const q = partial.trim().toLowerCase();
    return Object.values(c.state.armies)
      .filter((a) => opts.all || c.isReferee || mine.has(a.id))
      .filter((a) => !q || a.id.includes(q) || a.name.toLowerCase().includes(q) || a.commander.toLowerCase().includes(q))
      .sort((a, b) => Number(mine.has(b.id)) - Number(mine.has(a.id)))
      .slice(0, 25)
      .map((a) => ({ name: `${c.isReferee && mine.has(a.id) ? 'yours: ' : ''}${a.name} (${a.commander})`.slice(0, 100), value: a.id }));
  });
}

/**
 * Places to offer for a hex option (`to:`, `hex:`, `around:`): the map's named places whose name
 * (or hex id) starts with what was typed, as "Valdheim (town, 2217)" with the hex id as the
 * value; a complete hex id typed is offered as itself first. Read-only; no campaign yields none.
 */
export function placeChoices(app: App, where: Where, partial: string): Choice[] {
  if (!findCampaignInChannel(app.db, where.guildId, where.channelId)) return [];
  return readCampaign(app, { actor: { ...where, userName: '' } }, (c) => {
    const q = partial.trim();
    const typed = c.map.parse(q);
    const exact = typed && c.map.inBounds(typed) ? [{ name: `${c.map.format(typed)}${placeHere(c.map, q)}`, value: c.map.format(typed) }] : [];
    const rank: Readonly<Record<string, number>> = { town: 0, port: 0, fortification: 0, place: 1, region: 2, water: 3 };
    const places = (q === '' || /^\d+$/.test(q) ? distinctPlaces(c.map).filter((p) => p.id.startsWith(q)) : placesNamed(c.map, q))
      .slice()
      .sort((a, b) => (rank[a.kind] ?? 9) - (rank[b.kind] ?? 9) || a.name.localeCompare(b.name))
      .map((p) => ({ name: placeLabel(p), value: p.id }))
      .filter((p) => !exact.some((e) => e.value === p.value));
    return [...exact, ...places].slice(0, 25);
  });
}

/** " (Valdheim)" when a place lies at this hex id. */
function placeHere(map: Parameters<typeof placesOf>[0], id: string): string {
  const names = placesOf(map).filter((p) => p.id === id.padStart(4, '0')).map((p) => p.name);
  return names.length > 0 ? ` (${names.join(', ')})` : '';
}

/**
 * Places for an option that lists several (`places:"0712 Valdheim 0915"`): the last one being
 * typed is completed like a hex option, the ones before it are kept as typed.
 */
export function placeListChoices(app: App, where: Where, partial: string): Choice[] {
  const cut = Math.max(partial.lastIndexOf(' '), partial.lastIndexOf(','), partial.lastIndexOf('>'));
  const head = partial.slice(0, cut + 1);
  if (head.length > 60) return [];
  return placeChoices(app, where, partial.slice(cut + 1)).map((c) => ({ name: `${head}${c.name}`.slice(0, 100), value: `${head}${c.value}` }));
}
