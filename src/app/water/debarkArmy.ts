import { debark } from '../../engine/water/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { currentEffects } from '../weather/currentEffects.js';
import { hexOrPlace } from '../places.js';
import { requireNotEnded } from '../campaign/requireNotEnded.js';

export interface DebarkArmyInput {
  readonly army: string | undefined;
  readonly hex: string | undefined;
  readonly bank?: string | undefined;
}

/** `/debark army: hex:` — puts the army ashore from its fleet. */
export function debarkArmy(app: App, actor: Actor, input: DebarkArmyInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireNotEnded(tx.state);
    const { army, asReferee } = requireControl(tx, input.army);
    const hex = hexOrPlace(tx.map, input.hex, 'hex', 'debark.badHex');
    if (input.bank !== undefined && input.bank !== 'left' && input.bank !== 'right') throw new UserError('debark.badBank', 'bank must be `left` or `right` (looking downstream).');
    const bank = input.bank as 'left' | 'right' | undefined;
    const out = orRefuse(debark(tx.state, tx.map, { armyId: army.id, hex, ...(bank ? { bank } : {}), givenBy: actor.userId, advanced: tx.state.settings.advancedEmbarkation }, currentEffects(tx.state)));
    const own = out.events.filter((e) => e.audience.kind === 'army').map((e) => e.text);
    const text = `${own.join('\n')}${asReferee ? ' (by the referee)' : ''}`;
    return { state: out.state, events: out.events, result: [ephemeral(text, { armyId: army.id, hex: tx.map.format(hex), assembly: out.assembly, cost: out.cost })] };
  });
}
