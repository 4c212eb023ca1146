import { escapeName, PUBLIC } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy } from '../armies.js';
import { UserError } from '../errors.js';
import { reply, type Reply } from '../messages.js';
import { assignmentDm } from '../deliveries/dmTest.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';

/** Referee: gives an army to a player (replacing any previous commander), or frees it. */
export function assignArmy(app: App, actor: Actor, input: { army: string | undefined; userId: string | undefined; userName: string | undefined; remove?: boolean | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'assign commanders');
    const army = requireArmy(tx.state, input.army);
    if (input.remove) {
      return { members: [{ kind: 'unassign', armyId: army.id }], events: [{ type: 'commanderRemoved', audience: PUBLIC, text: `${army.name} has no commander now.`, data: { armyId: army.id } }], result: [reply(`${army.name} has no commander now.`, { armyId: army.id, userId: null })] };
    }
    if (!input.userId) throw new UserError('assign.userMissing', 'Say who commands it: `/campaign assign army:hadewych user:@player`.');
    const name = input.userName ?? input.userId;
    const shown = escapeName(name);
    return {
      members: [{ kind: 'assign', armyId: army.id, userId: input.userId, displayName: name }],
      events: [{ type: 'commanderAssigned', audience: PUBLIC, text: `${shown} now commands ${army.name}.`, data: { armyId: army.id, userId: input.userId } }],
      // The DM doubles as a test that the player can be reached before any secret needs it.
      outbox: assignmentDm(tx, input.userId, army),
      result: [reply(`${shown} now commands **${army.name}** (\`${army.id}\`).`, { armyId: army.id, userId: input.userId })],
    };
  });
}
