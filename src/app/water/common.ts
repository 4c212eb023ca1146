import type { Hex } from '../../engine/hex/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { Result } from '../../engine/result.js';
import type { CampaignState } from '../../engine/state/index.js';
import { TICK_PLAN } from '../../engine/tick/index.js';
import type { WeatherEffects } from '../../engine/weather/index.js';
import { UserError } from '../errors.js';

/** An engine refusal becomes a UserError with the same code and message. */
export function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new UserError(r.violation.code, r.violation.message, r.violation.details ? { ...r.violation.details } : undefined);
  return r.value;
}

/** The weather's effects on the rules right now (as the tick plan computes them). */
export function currentEffects(state: CampaignState): WeatherEffects {
  return TICK_PLAN.effects(state);
}

export function requireNotEnded(state: CampaignState): void {
  if (state.status === 'ended') throw new UserError('campaign.ended', 'The campaign has ended; no more orders.');
}

/** One hex id, or a UserError saying what a hex id looks like. */
export function parseHexText(map: MapModel, text: string | undefined, code: string, what: string): Hex {
  const h = text ? map.parse(text.trim()) : undefined;
  if (!h || !map.inBounds(h)) throw new UserError(code, `${what}: "${text ?? ''}" is not a hex of this map (ids like 2303: column then row, columns 01-${map.width}, rows 01-${map.height}).`);
  return h;
}

/** A path of hex ids separated by spaces, commas or dashes. */
export function parsePathText(map: MapModel, text: string, code: string): Hex[] {
  const parts = text.split(/[\s,;>-]+/).filter((p) => p.length > 0);
  if (parts.length === 0) throw new UserError(code, 'The path is empty: give hexes in order, e.g. `path:"2303 2202 2102"`.');
  return parts.map((p) => parseHexText(map, p, code, 'In the path'));
}
