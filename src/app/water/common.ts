import type { Hex } from '../../engine/hex/index.js';
import type { MapModel } from '../../engine/map/index.js';
import type { Result } from '../../engine/result.js';
import type { RefusalCode } from '../../engine/refusalCodes.js';
import type { CampaignState } from '../../engine/state/index.js';
import { TICK_PLAN } from '../../engine/tick/index.js';
import type { WeatherEffects } from '../../engine/weather/index.js';
import { UserError } from '../errors.js';
import { hexOrPlace, pathOfPlaces } from '../places.js';

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

/** One hex id or place name, or a UserError saying what is accepted. */
export function parseHexText(map: MapModel, text: string | undefined, code: RefusalCode, what: string): Hex {
  return hexOrPlace(map, text, what, code);
}

/** A path of hex ids or place names separated by spaces, commas or dashes. */
export function parsePathText(map: MapModel, text: string, code: RefusalCode): Hex[] {
  return pathOfPlaces(map, text, 'path', code);
}
