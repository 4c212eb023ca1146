import { SCOUT_LIMIT } from '../../engine/contact/index.js';
import { REFEREE } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';

/** What `/army status` and `/scouts` say of an army's scouts: the same words in both. */
export function scoutsLine(deployed: number): string {
  return `Scouts: ${deployed} deployed ahead (any number from 0 to ${SCOUT_LIMIT}; they cost no army points, each is rolled at the next contact phase, and the deployment stands for the contacts after it).`;
}

/**
 * `/scouts army: count:` deploys scouts ahead of the force (0 recalls them). A scout costs no army
 * points and any number may be deployed (000), up to a sane bound (SCOUT_LIMIT); each deployed
 * scout rolls once on the scout table at every contact phase. Scouts killed or captured do not
 * shrink what may be deployed later. @see 000 Scouts Out; RULINGS 5
 */
export function deployScouts(app: App, actor: Actor, input: { army?: string | undefined; count: number | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    const count = input.count;
    if (count === undefined || !Number.isInteger(count) || count < 0 || count > SCOUT_LIMIT) {
      throw new UserError('scouts.badCount', `${army.name} can deploy 0 to ${SCOUT_LIMIT} scouts (a scout costs no army points; more than ${SCOUT_LIMIT} would add nothing but more chances of one being captured). Example: \`/scouts army:${army.id} count:2\`.`);
    }
    const state = { ...tx.state, armies: { ...tx.state.armies, [army.id]: { ...army, scouts: count } } };
    const by = asReferee ? ' (by the referee)' : '';
    return {
      state,
      events: [{ type: 'scoutsDeployed', audience: REFEREE, text: `${army.name} deploys ${count} scout(s)${by}.`, data: { armyId: army.id, count } }],
      result: [ephemeral(`${army.name}: ${scoutsLine(count)}`, { armyId: army.id, count, limit: SCOUT_LIMIT })],
    };
  });
}
