import { toArmy } from '../../engine/events/index.js';
import { regimentFigures } from '../../engine/forces/index.js';
import { assignRoles } from '../../engine/movement/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';

export interface SetRolesInput {
  readonly army?: string | undefined;
  /** Regiment id or name to lead as the assault regiment. */
  readonly assault: string | undefined;
  /** Regiment to support it (default: the current support, or the next regiment). */
  readonly support?: string | undefined;
}

/** `/army roles`: reassigns assault, support and reserve; the answer is private (strengths are secret). */
export function setRoles(app: App, actor: Actor, input: SetRolesInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    if (!input.assault) {
      const list = army.regiments.map((r) => `${r.id} (${r.name}, ${r.role})`).join(', ');
      throw new UserError('roles.missing', `Name the assault regiment, e.g. \`assault:${army.regiments[1]?.id ?? army.regiments[0]?.id ?? 'r1'}\`. Regiments: ${list}.`);
    }
    const r = assignRoles(army, input.assault, input.support);
    if (!r.ok) throw new UserError(r.violation.code, r.violation.message);
    const updated = r.value;
    const lines = updated.regiments.map((g) => `- ${g.role}: ${g.name} (${g.id}), ${regimentFigures(g)}/${g.originalFigures} figures`);
    const text = [`**${army.name}** — order of march${asReferee ? ' (set by the referee)' : ''}:`, ...lines].join('\n');
    return {
      state: { ...tx.state, armies: { ...tx.state.armies, [army.id]: updated } },
      events: [{ type: 'rolesAssigned', audience: toArmy(army.id), text: `Roles: ${updated.regiments.map((g) => `${g.name} ${g.role}`).join(', ')}${asReferee ? ' (by the referee)' : ''}.` }],
      result: [ephemeral(text, { armyId: army.id, roles: updated.regiments.map((g) => ({ id: g.id, role: g.role })) })],
    };
  });
}
