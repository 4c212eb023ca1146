import { formatGameTime } from '../../engine/clock/index.js';
import { planSail } from '../../engine/water/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { stopSailChange } from './stopSail.js';
import { currentEffects } from '../weather/currentEffects.js';
import { hexOrPlace, pathOfPlaces } from '../places.js';
import { requireNotEnded } from '../campaign/requireNotEnded.js';

export interface OrderSailInput {
  readonly army: string | undefined;
  readonly path?: string | undefined;
  readonly to?: string | undefined;
  /** `stop:true`: the fleet stops where it lies (no `path` or `to` then). */
  readonly stop?: boolean | undefined;
}

/**
 * `/sail army: path:|to:` — the fleet's voyage, previewed hex by hex at the current weather.
 * `/sail army: stop:true` — the fleet stops where it lies (stopSailChange).
 */
export function orderSail(app: App, actor: Actor, input: OrderSailInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireNotEnded(tx.state);
    const { army, asReferee } = requireControl(tx, input.army);
    if (input.stop === true) {
      if (input.path || input.to) throw new UserError('sail.stopAndRoute', 'Either stop the fleet (`stop:true`) or give it a voyage (`to:` or `path:`), not both.');
      return stopSailChange(tx, army, asReferee);
    }
    if (!input.path && !input.to) throw new UserError('sail.noPath', 'Give `to:` (a destination hex, e.g. `to:0506`) or `path:` (hexes in order, e.g. `path:"2303 2202 2102"`).');
    const req = input.path ? { path: pathOfPlaces(tx.map, input.path, 'path', 'sail.badHex') } : { to: hexOrPlace(tx.map, input.to, 'to', 'sail.badHex') };
    const plan = orRefuse(planSail(tx.state, tx.map, army.id, { ...req, givenBy: actor.userId }, currentEffects(tx.state)));
    const groups = new Map<string, string[]>();
    for (const p of plan.preview) {
      const key = `Day ${p.day}, ${p.half}`;
      groups.set(key, [...(groups.get(key) ?? []), `${p.hex}`]);
    }
    const lines = [`Sail order for ${army.name}${asReferee ? ' (by the referee)' : ''}: ${plan.path.length} hex(es), 6 points each: ${plan.path.join(' ')}.`];
    for (const [when, hexes] of groups) lines.push(`- ${when}: ${hexes.join(', ')}`);
    if (plan.halves !== undefined) {
      const last = plan.preview[plan.preview.length - 1];
      lines.push(`Arrives ${last ? `Day ${last.day}, ${last.half}` : 'at once'} (${plan.halves} half period(s) at the current weather), then land with \`/debark\`.`);
    } else lines.push('The fleet does not arrive within three days at the current weather; the order stands and the fleet sails as the weather allows.');
    if (plan.warnings.length > 0) lines.push(...plan.warnings.map((w) => `⚠ ${w}`));
    const state = { ...tx.state, orders: { ...tx.state.orders, [army.id]: plan.order } };
    const events = [{ type: 'sailOrdered', audience: { kind: 'army' as const, armyId: army.id }, text: `Sail order from ${formatGameTime(tx.state.clock)}: ${plan.path.join(' ')}${asReferee ? ' (by the referee)' : ''}.`, data: { path: plan.path } }];
    return { state, events, result: [ephemeral(lines.join('\n'), { armyId: army.id, path: plan.path, preview: plan.preview, halves: plan.halves, warnings: plan.warnings })] };
  });
}
