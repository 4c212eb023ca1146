/**
 * Lets the event loop run what waits (an interaction to answer, a gateway heartbeat, a delivery
 * finishing) before the scheduler goes on to the next campaign: a minute on which many campaigns
 * are due is worked through in slices of one campaign each, never in one synchronous block.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
