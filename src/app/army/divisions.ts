import { escapeName, isPlainName, PLAIN_NAME_RULE } from '../../engine/events/index.js';
import { mergeArmies, orderMachines, splitArmy } from '../../engine/movement/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy, requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { commandersOf } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import type { CampaignTx, MemberChange } from '../campaignTx.js';
import { routeEvents } from '../deliveries/routeEvents.js';

/**
 * The army a split or merge is ordered for: the referee's for any army; a commander's own when
 * the referee lets commanders split and merge (`/campaign profile commander-divisions:true`).
 */
function divisionControl(tx: CampaignTx, text: string | undefined): ReturnType<typeof requireControl> {
  const control = requireControl(tx, text);
  if (!control.asReferee && !tx.state.settings.commanderDivisions) {
    throw new UserError('division.refereeOnly', 'Only the referee splits and merges armies in this campaign (the referee may allow commanders with `/campaign profile commander-divisions:true`).');
  }
  return control;
}

/** `/army split army: regiments: to: [name:]`: the named regiments march off into a neighbouring hex as a division. */
export function splitDivision(app: App, actor: Actor, input: { army?: string | undefined; regiments?: string | undefined; to?: string | undefined; name?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = divisionControl(tx, input.army);
    const to = input.to ? tx.map.parse(input.to) : undefined;
    if (!to || !tx.map.inBounds(to)) throw new UserError('division.badHex', `Give the hex next to ${tx.map.format(army.hex)} the division marches off into, e.g. \`to:0712\`.`);
    const regiments = (input.regiments ?? '').split(',').map((r) => r.trim()).filter((r) => r !== '');
    if (input.name !== undefined && !isPlainName(input.name.trim())) throw new UserError('army.divisionName', `The division's name "${escapeName(input.name.trim())}" ${PLAIN_NAME_RULE}.`);
    const r = orRefuse(splitArmy(tx.state, tx.map, { armyId: army.id, regiments, to, ...(input.name ? { name: input.name.trim() } : {}) }));
    const division = r.state.armies[r.divisionId];
    const events = r.events;
    const commanders = commandersOf(tx, army.id);
    const first = tx.members.find((m) => m.role === 'commander' && m.armyId === army.id && m.userId === commanders[0]);
    const members: MemberChange[] = first ? [{ kind: 'assign', armyId: r.divisionId, userId: first.userId, displayName: first.displayName }] : [];
    const text = `${division?.name ?? r.divisionId} (\`${r.divisionId}\`) marches off to ${tx.map.format(to)}${asReferee ? ' (by the referee)' : ''} with ${division?.regiments.map((g) => g.name).join(', ') ?? ''}. It acts as an army of its own until it joins ${army.name} again (\`/army merge\`).`;
    return { state: r.state, events, members, outbox: routeEvents({ ...tx, state: r.state }, events), result: [ephemeral(text, { armyId: army.id, divisionId: r.divisionId })] };
  });
}

/** `/army merge army: into:`: a division next to another army of its side joins it. */
export function mergeDivision(app: App, actor: Actor, input: { army?: string | undefined; into?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = divisionControl(tx, input.army);
    const into = requireArmy(tx.state, input.into);
    if (!asReferee && !commandersOf(tx, into.id).includes(actor.userId)) throw new UserError('army.notYours', `${into.name} is not your army: a division joins one of its commander's own armies (or the referee merges them).`);
    const r = orRefuse(mergeArmies(tx.state, tx.map, army.id, into.id));
    const events = r.events;
    const members: MemberChange[] = [{ kind: 'unassign', armyId: army.id }];
    const text = `${army.name} joins ${into.name} at ${tx.map.format(into.hex)}${asReferee ? ' (by the referee)' : ''}.`;
    return { state: r.state, events, members, outbox: routeEvents({ ...tx, state: r.state }, events), result: [ephemeral(text, { armyId: army.id, into: into.id })] };
  });
}

/** `/army machines army: state:`: war machines assembled or disassembled, a day's work at least. */
export function orderWarMachines(app: App, actor: Actor, input: { army?: string | undefined; state?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    if (input.state !== 'assembled' && input.state !== 'disassembled') throw new UserError('machines.badState', '`state:` is `assembled` (6 miles a day, ready for battle) or `disassembled` (12 miles a day, not usable in a battle).');
    const r = orRefuse(orderMachines(tx.state, army.id, input.state));
    const events = r.events;
    const text = `${army.name}'s war machines are being ${input.state}${asReferee ? ' (by the referee)' : ''}: ready at daybreak of day ${r.readyDay}. The army does not march meanwhile.`;
    return { state: r.state, events, result: [ephemeral(text, { armyId: army.id, to: input.state, readyDay: r.readyDay })] };
  });
}
