import { embark, parseVessels, describeVessels } from '../../engine/water/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { requireNotEnded } from '../campaign/requireNotEnded.js';

export interface EmbarkArmyInput {
  readonly army: string | undefined;
  readonly vessels: string | undefined;
}

/** `/embark army: vessels:` — the army boards vessels it owns, whole regiments only. */
export function embarkArmy(app: App, actor: Actor, input: EmbarkArmyInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireNotEnded(tx.state);
    const { army, asReferee } = requireControl(tx, input.army);
    if (!input.vessels) throw new UserError('embark.noVessels', `Say which vessels, e.g. \`vessels:"troopTransport=9,galley=1"\`. ${army.name} owns ${describeVessels(army.vessels)}.`);
    const vessels = orRefuse(parseVessels(input.vessels));
    const out = orRefuse(embark(tx.state, tx.map, { armyId: army.id, vessels, givenBy: actor.userId, advanced: tx.state.settings.advancedEmbarkation }));
    const { load } = out;
    const lines = [
      `${army.name} embarks on ${describeVessels(vessels)} at ${tx.map.format(army.hex)}${asReferee ? ' (by the referee)' : ''}.`,
      `Capacity: ${load.arithmetic}. Aboard: ${load.aboard.map((r) => `${r.name} (${r.figures})`).join(', ') || 'individuals only'} = ${load.figuresAboard} figures; individuals ride free.`,
    ];
    if (load.ashore.length > 0) lines.push(`Ashore: ${load.ashore.map((r) => `${r.name} (${r.figures})`).join(', ')}: they follow by shuttle after you land; the army does not march until all have arrived.`);
    if (load.aboard.length > 0 && (load.galleys > 0 || load.ashore.length === 0)) {
      lines.push(load.galleys >= load.escortNeeded ? `Escort: ${load.galleys} galley(s) for ${load.escortNeeded} regiment(s): effective.` : `Escort: ${load.galleys} galley(s) for ${load.escortNeeded} regiment(s): an effective escort needs one galley per regiment.`);
    }
    if (out.dayShare < 1) lines.push(`Embarking partway through the day: ${Math.round(out.dayShare * 100)} % of the fleet's daily points remain today.`);
    if (out.fleet.waitHalves > 0) lines.push('Advanced rule: the fleet waits six hours for the tide before sailing.');
    lines.push('Give the voyage with `/sail army: to:` or `path:`.');
    return { state: out.state, events: out.events, result: [ephemeral(lines.join('\n'), { armyId: army.id, vessels, aboard: out.fleet.regiments, ashore: out.fleet.ashore, capacity: load.capacity, dayShare: out.dayShare })] };
  });
}
