import { echo } from '../../engine/events/index.js';
import { parseWholeNumber } from '../wholeNumber.js';
import { byId, NUMBER_LIMITS } from '../../engine/state/index.js';
import { advanceTabletopTurn, battleLosses, describeStep, applyBattleResult, declareWithdrawal, type ContactRecord } from '../../engine/contact/index.js';
import type { Army } from '../../engine/forces/index.js';
import { isFog } from '../../engine/knowledge/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireArmy, requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, reply, type Reply } from '../messages.js';
import { armiesOf } from '../members.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';
import type { CampaignTx } from '../campaignTx.js';
import { routeEvents } from '../deliveries/routeEvents.js';
import { deliveries } from '../deliveries/contactPrompts.js';
import { battleForReferee, contactOfArmy } from './whichContact.js';

type Condition = 'formed' | 'retreat' | 'rout';
const CONDITIONS: readonly Condition[] = ['formed', 'retreat', 'rout'];

function pairs(text: string | undefined): [string, string][] {
  return (text ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '').map((p) => {
    const m = /^([^=]+)=(.+)$/.exec(p);
    if (!m) throw new UserError('battle.badPair', `${echo(p)} is not \`name=value\`.`);
    return [(m[1] as string).trim(), (m[2] as string).trim()];
  });
}

/** Figures lost per army and regiment, as written: `"hadewych/first=4, grallune/first=2"` (a bare regiment id when only one army has it). */
function parseLosses(tx: CampaignTx, c: ContactRecord, text: string | undefined): { armyId: string; regimentId: string; figures: number }[] {
  const armies = c.armyIds.map((id) => tx.state.armies[id]).filter((a): a is Army => a !== undefined);
  const known = armies.flatMap((a) => a.regiments.map((r) => `${a.id}/${r.id}`)).join(', ');
  return pairs(text).map(([key, n]) => {
    const [armyText, regText] = key.includes('/') ? (key.split('/', 2) as [string, string]) : [undefined, key];
    const regId = regText.trim();
    const candidates = armies.filter((a) => a.regiments.some((r) => r.id === regId) && (armyText === undefined || a.id === requireArmy(tx.state, armyText).id));
    const [army, ...others] = candidates;
    if (!army || others.length > 0) throw new UserError('battle.unknownRegiment', `${echo(key)} names no single regiment of ${c.id}. Write army/regiment=figures with one of: ${known}.`);
    const count = parseWholeNumber(n, NUMBER_LIMITS.figures);
    if (count === undefined) throw new UserError('battle.badLosses', `Losses for ${regId} must be a whole number of figures from ${NUMBER_LIMITS.figures.min} to ${NUMBER_LIMITS.figures.max.toLocaleString('en')}.`);
    return { armyId: army.id, regimentId: regId, figures: count };
  });
}

/**
 * `/battle result`: the referee records a tabletop battle: figures lost per regiment
 * (`losses:"hadewych/first=4, grallune/first=2"`, added to the casualties entered turn by turn
 * with `/battle turn`: the last turn's, or the whole battle's when none were), withdrawals
 * (`withdraw:"hadewych=rout"`, joined with those declared by /withdraw) and aggressive pursuers
 * (`pursue:"grallune"`).
 */
export function battleResult(app: App, actor: Actor, input: { contact?: string | undefined; losses?: string | undefined; withdraw?: string | undefined; pursue?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'record a battle');
    const c = battleForReferee(tx.state, input.contact);
    if (c.step !== 'battle') throw new UserError('battle.none', `Contact ${c.id} has no battle waiting for its result (it is ${describeStep(c.step)}).`);
    const losses = orRefuse(battleLosses(tx.state, c, parseLosses(tx, c, input.losses)));
    const declared: Record<string, Condition> = { ...(c.data.withdrawals ?? {}) };
    for (const [who, cond] of pairs(input.withdraw)) {
      if (!CONDITIONS.includes(cond as Condition)) throw new UserError('battle.badCondition', `A withdrawal is formed, retreat or rout (not ${echo(cond)}).`);
      declared[requireArmy(tx.state, who).id] = cond as Condition;
    }
    const pursuers = (input.pursue ?? '').split(',').filter((t) => t.trim() !== '').map((t) => requireArmy(tx.state, t).id);
    const withdrawals = Object.entries(declared).map(([armyId, condition]) => ({ armyId, condition }));
    const r = orRefuse(applyBattleResult(tx.state, tx.map, c.id, { losses, withdrawals, pursuers }, tx.dice));
    const d = deliveries(tx, tx.state, r.state, r.events);
    return { state: r.state, events: d.events, outbox: d.outbox, result: [(isFog(tx.state) ? ephemeral : reply)(`Battle ${c.id} recorded.`, { contactId: c.id })] };
  });
}

/** The battle a `/battle turn` is for: the one named, or the only battle of the actor's armies (the referee's: the only battle). */
function battleFor(tx: CampaignTx, actor: Actor, text: string | undefined): ContactRecord {
  const mine = armiesOf(tx, actor.userId);
  const battles = Object.values(tx.state.contacts).filter((c) => c.step === 'battle' && (tx.isReferee || c.armyIds.some((id) => mine.includes(id))));
  const c = text ? byId(tx.state.contacts, text.trim()) : battles.length === 1 ? battles[0] : undefined;
  if (!c || !battles.includes(c)) {
    throw new UserError('battle.which', `Say which battle with \`contact:\`${battles.length > 0 ? `: ${battles.map((b) => b.id).join(', ')}` : ' (none of yours is being fought)'}. The referee or a commander of the battle advances its turn.`);
  }
  return c;
}

/**
 * `/battle turn [contact:] [casualties:]`: the referee or a commander of the battle advances the
 * tabletop turn; each side hears privately which of its companies come on at its baseline. The
 * casualties of the turn just fought may be entered as it ends (a commander for their own army).
 */
export function battleTurn(app: App, actor: Actor, input: { contact?: string | undefined; casualties?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const c = battleFor(tx, actor, input.contact);
    const casualties = parseLosses(tx, c, input.casualties);
    const mine = armiesOf(tx, actor.userId);
    const foreign = casualties.find((l) => !tx.isReferee && !mine.includes(l.armyId));
    if (foreign) throw new UserError('battle.notYours', `${tx.state.armies[foreign.armyId]?.name ?? foreign.armyId} is not your army: each commander enters their own casualties (the referee any).`);
    const r = orRefuse(advanceTabletopTurn(tx.state, c.id, casualties));
    const said = casualties.length > 0 ? ` Casualties of turn ${r.turn - 1} recorded (${casualties.length} regiment(s)).` : '';
    return { state: r.state, events: r.events, outbox: routeEvents({ ...tx, state: r.state }, r.events), result: [ephemeral(`Battle ${c.id}: turn ${r.turn} begins.${said} Each side is told what arrives.`, { contactId: c.id, turn: r.turn })] };
  });
}

/** `/battle list`: battles waiting for a result. */
export function battleList(app: App, actor: Actor): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const battles = Object.values(tx.state.contacts).filter((c) => c.step === 'battle');
    const name = (id: string): string => tx.state.armies[id]?.name ?? id;
    const text = battles.length > 0 ? battles.map((c) => `- ${c.id}: ${c.armyIds.map(name).join(' vs ')} at ${c.hexes.map((h) => tx.map.format(h)).join('/')}`).join('\n') : 'No battle is waiting for its result.';
    return { result: [ephemeral(text, { battles: battles.map((c) => c.id) })] };
  });
}

/** `/withdraw army: condition:`: a commander declares a withdrawal from the tabletop battle. */
export function withdraw(app: App, actor: Actor, input: { army?: string | undefined; contact?: string | undefined; condition?: string | undefined }): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    const condition = (input.condition ?? 'formed') as Condition;
    if (!CONDITIONS.includes(condition)) throw new UserError('battle.badCondition', 'condition is formed (25% behind the baseline in good order), retreat, or rout (25% routed off the table).');
    const c = contactOfArmy(tx.state, army, input.contact);
    const r = orRefuse(declareWithdrawal(tx.state, c.id, army.id, condition));
    const by = asReferee ? ' (by the referee)' : '';
    return {
      state: r.state,
      events: [{ type: 'withdrawalDeclared', audience: { kind: 'referee' }, text: `${army.name} withdraws (${condition})${by}.`, data: { contactId: c.id, armyId: army.id, condition } }],
      result: [ephemeral(`${army.name} withdraws from battle ${c.id} (${condition}). The referee applies it with the battle result.`, { contactId: c.id, condition })],
    };
  });
}
