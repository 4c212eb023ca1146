import { REFEREE } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign, type CampaignTx } from '../session.js';
import type { Army } from '../../engine/forces/index.js';

/** The scouts an army has: those of its scenario entry, less those killed or captured in contacts. `/army status` says the same. */
export function scoutsAvailable(tx: Pick<CampaignTx, 'scenario' | 'state'>, army: Army): { original: number; lost: number; available: number } {
  const original = tx.scenario.armies.find((a) => a.id === army.id)?.scouts ?? 0;
  const lost = Object.values(tx.state.contacts).reduce((n, c) => n + (c.data.scouts?.[army.id] ?? []).filter((s) => s === 'killed' || s === 'captured').length, 0);
  return { original, lost, available: Math.max(0, original - lost) };
}

/**
 * `/scouts army: count:` deploys scouts ahead of the force (0 recalls them). An army has the
 * scouts of its scenario entry, less those killed or captured in contacts so far. Each deployed
 * scout is rolled on the scout table at the next contact phase. @see 000 Scouts Out
 */
export function deployScouts(app: App, actor: Actor, input: { army?: string | undefined; count: number | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    const { original, lost, available } = scoutsAvailable(tx, army);
    const count = input.count;
    if (count === undefined || !Number.isInteger(count) || count < 0 || count > available) {
      throw new UserError('scouts.badCount', `${army.name} can deploy 0 to ${available} scout(s) (${original} at the start, ${lost} lost). Example: \`/scouts army:${army.id} count:${Math.min(1, available)}\`.`);
    }
    const state = { ...tx.state, armies: { ...tx.state.armies, [army.id]: { ...army, scouts: count } } };
    const by = asReferee ? ' (by the referee)' : '';
    return {
      state,
      events: [{ type: 'scoutsDeployed', audience: REFEREE, text: `${army.name} deploys ${count} scout(s)${by}.`, data: { armyId: army.id, count } }],
      result: [ephemeral(`${army.name}: ${count} scout(s) deployed ahead (of ${available} available). They report at the next contact.`, { armyId: army.id, count, available })],
    };
  });
}
