/**
 * A bounded memo for the schedule's pure computations (cron walks, local times). They depend only
 * on their arguments (cadence, timezone, instants), and on a busy minute a thousand campaigns on
 * the default cadence ask the same question with the same arguments: each is worked out once.
 * Values are kept as they are returned; callers must not change them (instants are kept as
 * milliseconds and rebuilt as new Dates by the callers). At most `size` answers are kept; when
 * full, the oldest half is dropped.
 */
export function boundedMemo<T>(size: number): (key: string, compute: () => T) => T {
  const answers = new Map<string, T>();
  return (key, compute) => {
    const hit = answers.get(key);
    if (hit !== undefined || answers.has(key)) return hit as T;
    const value = compute();
    if (answers.size >= size) {
      let drop = Math.ceil(size / 2);
      for (const k of answers.keys()) {
        if (drop-- <= 0) break;
        answers.delete(k);
      }
    }
    answers.set(key, value);
    return value;
  };
}
