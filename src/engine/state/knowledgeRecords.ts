import type { GameTime } from '../clock/index.js';
import type { Hex } from '../hex/index.js';

/**
 * What each army's side knows of where the others are (fog of war), as the campaign state keeps
 * it. The knowledge rules (src/engine/knowledge) write it. @see RULINGS 6 Secrets
 */

export type SightingHow = 'public' | 'contact' | 'courier';

/** Where an army was seen, when, and how the viewer knows. */
export interface Sighting {
  readonly hex: Hex;
  readonly at: GameTime;
  readonly how: SightingHow;
  /** A courier's report: the army that sent it. */
  readonly from?: string;
}

/** Sightings by the id of the army seen. */
export type Sightings = Readonly<Record<string, Sighting>>;

export interface KnowledgeState {
  /** What each army remembers, by the viewer army's id. */
  readonly armies: Readonly<Record<string, Sightings>>;
  /** Reports riding with couriers (what the sender knew when it sent them), by courier id. */
  readonly reports: Readonly<Record<string, Sightings>>;
}
