import { formatGameTime, type GameTime } from '../clock/index.js';
import type { Fact, PublicAudience, Told } from '../events/index.js';

/** What the tick itself reports: the clock moving on. */
export type TickFact = Fact<'clockAdvanced', { readonly from: GameTime; readonly to: GameTime }, PublicAudience>;

export type TickEvent = Told<TickFact>;

/** The sentence of a tick fact. */
export function describeTick(f: TickFact): string {
  return `The clock moves on to ${formatGameTime(f.data.to)}.`;
}
