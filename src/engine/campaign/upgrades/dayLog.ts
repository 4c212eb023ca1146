type Json = Readonly<Record<string, unknown>>;

/**
 * Upgrade step: every army's march books get the log of its recent days (`recentDays`: marched
 * or not, oldest first), which the marching-days windows of the movement profiles read (ACKS:
 * at most four marching days in any seven). The old books kept only the count of consecutive
 * days marched: those days go in as marched, after one day without a march (the count was reset
 * by a day without movement, or the campaign began rested); older days are not known and count
 * as rest, as the days before a campaign do.
 */
export function logRecentDays(s: Json): Json {
  const armies = Object.fromEntries(Object.entries((s['armies'] ?? {}) as Readonly<Record<string, Json>>).map(([id, a]) => {
    const m = (a['march'] ?? {}) as Json;
    if (Array.isArray(m['recentDays'])) return [id, a];
    const marched = typeof m['daysMarched'] === 'number' && m['daysMarched'] > 0 ? Math.min(13, Math.floor(m['daysMarched'])) : 0;
    const recentDays = marched > 0 ? [false, ...Array.from({ length: marched }, () => true)] : [];
    return [id, { ...a, march: { ...m, recentDays } }];
  }));
  return { ...s, armies };
}
