import { formatGameTime, type GameTime } from '../clock/gameTime.js';
import type { Fact, PublicAudience, Told } from '../events/events.js';

/** What the tick itself reports: the clock moving on. */
export type TickFact = Fact<'clockAdvanced', { readonly from: GameTime; readonly to: GameTime }, PublicAudience>;

export type TickEvent = Told<TickFact>;

/** The sentence of a tick fact. */
export function describeTick(f: TickFact): string {
  return `The clock moves on to ${formatGameTime(f.data.to)}.`;
}
