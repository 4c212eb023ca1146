import { compareIds, type ContactData, type ContactRecord, type Estimate } from '../state/index.js';

/** Who looks at a contact: the referee, or one army's commander. */
export type ContactViewer = { readonly kind: 'referee' } | { readonly kind: 'army'; readonly armyId: string };

/**
 * A contact as one viewer may see it. The referee sees everything; a commander sees the public
 * parts, their own dice, scouts and estimates, and the terrain cards, never the truth or an
 * opponent's dice or estimates. @see RULINGS 6 Secrets
 */
export function contactView(record: ContactRecord, viewer: ContactViewer): ContactRecord {
  if (viewer.kind === 'referee') return record;
  const d = record.data;
  const me = viewer.armyId;
  const only = <T>(m: Readonly<Record<string, T>> | undefined): Record<string, T> | undefined => {
    const mine = m?.[me];
    return mine !== undefined ? { [me]: mine } : undefined;
  };
  const mine = (d.disengagements ?? []).filter((o) => o.armyId === me);
  const data: ContactData = {
    ...(d.stepAt !== undefined ? { stepAt: d.stepAt } : {}),
    ...(only(d.step1) ? { step1: only(d.step1) } : {}),
    ...(only(d.decisions) ? { decisions: only(d.decisions) } : {}),
    ...(only(d.scouts) ? { scouts: only(d.scouts) } : {}),
    ...(only(d.contactDice) ? { contactDice: only(d.contactDice) } : {}),
    ...(d.contactHour !== undefined && d.contactDice?.[me] ? { contactHour: d.contactHour } : {}),
    ...(only(d.estimates) ? { estimates: only(d.estimates) } : {}),
    ...(d.terrain ? { terrain: d.terrain } : {}),
    ...(mine.length > 0 ? { disengagements: mine } : {}),
    ...(d.deployment ? { deployment: d.deployment } : {}),
    // The conditions of the battle: the public ones, and this commander's own force only.
    ...(d.conditions ? { conditions: { ...d.conditions, forces: d.conditions.forces[me] ? { [me]: d.conditions.forces[me] } : {} } } : {}),
    ...(d.outcome ? { outcome: d.outcome } : {}),
    ...(d.quietUntil !== undefined ? { quietUntil: d.quietUntil } : {}),
    ...(d.supports ? { supports: d.supports } : {}),
    ...(d.reserves ? { reserves: d.reserves } : {}),
  };
  return { ...record, data };
}

/** Every estimate an army's commander has received, oldest first (for /intel). */
export function intelFor(contacts: readonly ContactRecord[], armyId: string): { contactId: string; openedAt: ContactRecord['openedAt']; hour?: number; estimates: Estimate[] }[] {
  return contacts
    .filter((c) => c.data.estimates?.[armyId] !== undefined)
    .sort((a, b) => a.openedAt.day - b.openedAt.day || a.openedAt.half - b.openedAt.half || compareIds(a.id, b.id))
    .map((c) => ({
      contactId: c.id,
      openedAt: c.openedAt,
      ...(c.data.contactHour !== undefined ? { hour: c.data.contactHour } : {}),
      estimates: Object.values(c.data.estimates?.[armyId] ?? {}),
    }));
}
