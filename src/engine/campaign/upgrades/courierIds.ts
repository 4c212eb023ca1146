/**
 * Upgrade step: couriers get their own id sequence (`nextCourierId`), apart from the contacts'
 * (`nextId`). Until now both drew on `nextId`, so every courier id of the stored campaign is below
 * it: the couriers' sequence goes on from there (whatever the storage filled in for a campaign
 * that never had one), and no id is handed out twice.
 */
export function separateCourierIds<S extends { readonly nextId: unknown }>(s: S): S & { readonly nextCourierId: number } {
  const next = typeof s.nextId === 'number' && Number.isInteger(s.nextId) && s.nextId > 0 ? s.nextId : 1;
  return { ...s, nextCourierId: next };
}
