import { NUMBER_LIMITS } from '../../engine/state/index.js';
import { parseWholeNumber } from '../wholeNumber.js';
import { scaleCompanies, type Army } from '../../engine/forces/index.js';
import { echo, REFEREE, PUBLIC, toArmy, type EngineEvent } from '../../engine/events/index.js';
import { defaultBank, isWater } from '../../engine/map/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy } from '../armies.js';
import { UserError } from '../errors.js';
import { hexOrPlace } from '../places.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import { routeEvents } from '../deliveries/routeEvents.js';

export interface EditArmyInput {
  readonly army: string | undefined;
  readonly hex?: string | undefined;
  /** "regimentId=figures" to set a regiment's current figures (scaled across its companies). */
  readonly figures?: string | undefined;
  readonly fatigued?: boolean | undefined;
  readonly formation?: string | undefined;
}

/** Referee corrections and set-ups by hand. Every change is logged; a move is public, figures are not. */
export function editArmy(app: App, actor: Actor, input: EditArmyInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'edit armies');
    let army: Army = requireArmy(tx.state, input.army);
    const events: EngineEvent[] = [];
    const done: string[] = [];
    if (input.hex !== undefined) {
      const h = hexOrPlace(tx.map, input.hex, 'hex', 'edit.badHex');
      const holder = Object.values(tx.state.armies).find((a) => a.id !== army.id && a.hex.q === h.q && a.hex.r === h.r);
      if (holder) throw new UserError('edit.hexOccupied', `${tx.map.format(h)} is held by ${holder.name}; one commander per hex.`);
      if (isWater(tx.map.terrainAt(h)) && !army.status.embarked) throw new UserError('edit.water', `${tx.map.format(h)} is water; only an embarked army can be placed there.`);
      const { bank: _bank, ...rest } = army;
      const bank = defaultBank(tx.map, h);
      army = { ...rest, hex: h, ...(bank ? { bank } : {}) };
      events.push({ type: 'armyPlaced', audience: PUBLIC, text: `The referee placed ${army.name} at ${tx.map.format(h)}.` });
      done.push(`hex ${tx.map.format(h)}`);
    }
    if (input.figures !== undefined) {
      const m = /^\s*([a-z0-9-]+)\s*=\s*(\S+)\s*$/.exec(input.figures);
      if (!m) throw new UserError('edit.badFigures', 'figures takes `regiment=count`, e.g. `figures:"r1=14"`. Regiments: ' + army.regiments.map((r) => r.id).join(', '));
      const [, regId, countText] = m;
      const reg = army.regiments.find((r) => r.id === regId);
      if (!reg) throw new UserError('edit.unknownRegiment', `${army.name} has no regiment ${echo(regId ?? '')}. Regiments: ${army.regiments.map((r) => r.id).join(', ')}.`);
      const target = parseWholeNumber(countText ?? '', NUMBER_LIMITS.figures);
      if (target === undefined) throw new UserError('edit.badFigures', `${reg.name} takes a whole number of figures from ${NUMBER_LIMITS.figures.min} to ${NUMBER_LIMITS.figures.max.toLocaleString('en')}, not ${echo(countText ?? '')}.`);
      const current = reg.companies.reduce((n, c) => n + c.figures, 0);
      const companies = scaleCompanies(reg.companies, target);
      army = { ...army, regiments: army.regiments.map((r) => (r.id === reg.id ? { ...r, companies } : r)) };
      events.push({ type: 'figuresEdited', audience: REFEREE, text: `Referee set ${army.name} / ${reg.name} to ${target} figures (was ${current}).` });
      events.push({ type: 'figuresEdited', audience: toArmy(army.id), text: `The referee set ${reg.name} to ${target} figures.` });
      done.push(`${reg.name} ${target} figures`);
    }
    if (input.fatigued !== undefined) {
      army = { ...army, status: { ...army.status, fatigued: input.fatigued }, march: { ...army.march, ...(input.fatigued ? { fatigueReason: 'referee' as const } : {}) } };
      events.push({ type: 'fatigueEdited', audience: PUBLIC, text: `The referee marked ${army.name} as ${input.fatigued ? 'fatigued' : 'rested'}.` });
      done.push(input.fatigued ? 'fatigued' : 'not fatigued');
    }
    if (input.formation !== undefined) {
      if (input.formation !== 'formed' && input.formation !== 'unformed') throw new UserError('edit.badFormation', 'formation must be `formed` or `unformed`.');
      army = { ...army, formation: input.formation };
      events.push({ type: 'formationEdited', audience: PUBLIC, text: `The referee set ${army.name} ${input.formation}.` });
      done.push(input.formation);
    }
    if (done.length === 0) throw new UserError('edit.nothing', 'Nothing to change: give `hex:`, `figures:"regiment=count"`, `fatigued:` or `formation:`.');
    const state = { ...tx.state, armies: { ...tx.state.armies, [army.id]: army } };
    return { state, events, outbox: routeEvents({ ...tx, state }, events), result: [ephemeral(`${army.name}: ${done.join(', ')}. Logged.`, { armyId: army.id, changes: done })] };
  });
}
