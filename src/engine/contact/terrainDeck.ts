import type { Dice } from '../dice/index.js';
import { TERRAIN_CARD_KINDS, TERRAIN_CARDS_EACH } from './tables.js';
import { type DealtCard, TERRAIN_DECK, type TerrainCard } from '../state/index.js';

/** The full deck as a list, in table order. */
export function terrainDeck(deck: Readonly<Partial<Record<TerrainCard, number>>> = TERRAIN_DECK): TerrainCard[] {
  return TERRAIN_CARD_KINDS.flatMap((card) => Array.from({ length: deck[card] ?? 0 }, () => card));
}

/**
 * Who draws the terrain cards, in order. `ranked` lists the commanders from the contact dice
 * winner down. The winner draws first ("the commander with the higher score on the contact dice
 * first draws"): as many cards as the difference of the highest and lowest unmodified contact
 * dice, and at least one when those dice are equal. Then the commanders take turns of one card in
 * rank order; the winner keeps taking turns until four cards, everyone else draws four. A winner
 * who drew four or more at once draws no more.
 * @see 001 Terrain Reconnaissance; RULINGS 5
 */
export function terrainDrawOrder(ranked: readonly string[], difference: number): string[] {
  const winner = ranked[0];
  if (winner === undefined) return [];
  const drawn = new Map<string, number>(ranked.map((a) => [a, 0]));
  const order: string[] = [];
  const first = Math.max(1, difference);
  for (let i = 0; i < first; i++) order.push(winner);
  drawn.set(winner, first);
  const wants = (a: string): boolean => (drawn.get(a) ?? 0) < TERRAIN_CARDS_EACH;
  // Rotation starts with the commander after the winner.
  const rotation = [...ranked.slice(1), winner];
  while (ranked.some(wants)) {
    for (const a of rotation) {
      if (!wants(a)) continue;
      order.push(a);
      drawn.set(a, (drawn.get(a) ?? 0) + 1);
    }
  }
  return order;
}

/** Deals the cards in draw order, each drawn at random from what is left of the deck. */
export function dealTerrain(order: readonly string[], dice: Dice, deck: readonly TerrainCard[] = terrainDeck()): DealtCard[] {
  const left = [...deck];
  const dealt: DealtCard[] = [];
  for (const armyId of order) {
    if (left.length === 0) break;
    const i = dice.roll(left.length, `terrain card for ${armyId}`) - 1;
    const [card] = left.splice(i, 1);
    if (card !== undefined) dealt.push({ armyId, card });
  }
  return dealt;
}
