import { echo } from '../events/index.js';
import type { Army, Regiment, RegimentRole } from '../forces/index.js';
import { fail, ok, type Result } from '../result.js';

/**
 * Reassigns the regiments' roles: the named assault regiment leads the order of march, the
 * named support regiment follows (by default the next regiment in the list), every other
 * regiment is in reserve. The commander may do this at the start of any half period; the bot
 * accepts it whenever the army is not in battle (orders are given before the half is played).
 * @see 000 Orders of March: Composition of Forces
 */
export function assignRoles(army: Army, assaultRef: string, supportRef?: string): Result<Army> {
  if (army.status.inBattle) return fail('roles.inBattle', `${army.name} is in battle: roles change once the battle is over.`);
  const find = (ref: string): Regiment | undefined => {
    const q = ref.trim().toLowerCase();
    return army.regiments.find((r) => r.id.toLowerCase() === q || r.name.toLowerCase() === q)
      ?? army.regiments.find((r) => r.id.toLowerCase().endsWith(q) || r.name.toLowerCase().includes(q));
  };
  const list = army.regiments.map((r) => `${r.id} (${r.name})`).join(', ');
  const assault = find(assaultRef);
  if (!assault) return fail('roles.unknownRegiment', `${army.name} has no regiment ${echo(assaultRef)}. Regiments: ${list}.`);
  let support: Regiment | undefined;
  if (supportRef !== undefined && supportRef.trim() !== '') {
    support = find(supportRef);
    if (!support) return fail('roles.unknownRegiment', `${army.name} has no regiment ${echo(supportRef)}. Regiments: ${list}.`);
    if (support.id === assault.id) return fail('roles.sameRegiment', 'One regiment cannot be both assault and support: name two different regiments.');
  } else {
    support = army.regiments.find((r) => r.id !== assault.id && r.role === 'support') ?? army.regiments.find((r) => r.id !== assault.id);
  }
  const roleOf = (r: Regiment): RegimentRole => (r.id === assault.id ? 'assault' : r.id === support?.id ? 'support' : 'reserve');
  // The assault regiment leads the order of march, support follows, reserve trails.
  const rank: Record<RegimentRole, number> = { assault: 0, support: 1, reserve: 2 };
  const regiments = army.regiments.map((r) => ({ ...r, role: roleOf(r) })).sort((a, b) => rank[a.role] - rank[b.role]);
  return ok({ ...army, regiments });
}
