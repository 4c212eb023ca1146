/**
 * The entry of a state record (armies, contacts, orders...) under `id`, if the record holds it
 * itself. A plain object also answers `__proto__`, `constructor` or `toString` from its prototype;
 * this never does. The one way to look up state by text a user typed or a button carried.
 */
export function byId<T>(record: Readonly<Record<string, T>>, id: string): T | undefined {
  return Object.hasOwn(record, id) ? record[id] : undefined;
}
