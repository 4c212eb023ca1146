import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { invariants } from '../../bench/soak.js';
import { timeIndex } from '../../src/engine/clock/index.js';
import { applyBattleResult, canEvade, chooseDecision, chooseStep1, isOpen, type Step1Choice } from '../../src/engine/contact/index.js';
import { createRngState, SeededDice } from '../../src/engine/dice/index.js';
import type { EngineEvent } from '../../src/engine/events/events.js';
import { isHostile } from '../../src/engine/forces/index.js';
import { buildMap, isWater } from '../../src/engine/map/index.js';
import { defaultPeriod, planMove } from '../../src/engine/movement/index.js';
import { checkPlan, PLAN_GIVER, type PlanOrder } from '../../src/engine/plans/index.js';
import { validateScenario } from '../../src/engine/campaign/validateScenario.js';
import type { CampaignState, Order } from '../../src/engine/state/index.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { followingPlans, resolveTick, TICK_PLAN } from '../../src/engine/tick/index.js';

/*
 * Issue 27, item 8's target: a season (400 half periods) of the Valormr scenario in which half the
 * armies have no commander and follow plans of every kind, the other half take random legal
 * orders and answer their contacts at random; every battle is recorded. After every tick: no
 * invariant broken, no contact waiting past its deadline (for nobody), and every change of a plan
 * army's order explained to the referee, with its reason, in that tick.
 */

const HALVES = 400;
const scenarioDoc: unknown = JSON.parse(readFileSync(fileURLToPath(new URL('../../assets/scenarios/valormr.json', import.meta.url)), 'utf8'));

/** Where an order leads: its kind and, for a march, its last hex. */
const aim = (o: Order | undefined): string => (o?.kind === 'move' ? `move:${o.path.length > 0 ? JSON.stringify(o.path[o.path.length - 1]) : 'here'}` : o?.kind ?? 'none');

describe('a season with plans: half the armies nobody commands (400 half periods)', () => {
  it('GIVEN plans of every kind and random orders for the rest WHEN 400 half periods are played THEN 0 invariant violations, 0 contacts stuck, every plan decision explained', () => {
    const checked = validateScenario(scenarioDoc);
    if (!checked.ok) throw new Error('the shipped scenario is valid');
    const map = buildMap(checked.scenario.map);
    let s: CampaignState = { ...newCampaign({ id: 'soak', name: 'Soak', scenario: checked.scenario, seed: 7 }), status: 'running' };
    const ids = Object.keys(s.armies).sort();
    const planned = ids.filter((_, i) => i % 2 === 0);
    const commanded = ids.filter((_, i) => i % 2 === 1);
    const pick = new SeededDice(createRngState(2027));
    const one = <T>(xs: readonly T[], purpose: string): T => xs[pick.roll(xs.length, purpose) - 1] as T;
    const land = map.allHexes().filter((h) => !isWater(map.terrainAt(h)));
    const towns = map.data.towns.map((t) => map.parse(t.hex)).filter((h) => h !== undefined);

    // Plans of every kind, each checked as /army plan checks it (a refused one holds instead).
    const kinds: readonly PlanOrder['kind'][] = ['patrol', 'march', 'shadow', 'withdraw', 'garrison', 'hold'];
    const policies = ['evade', 'delay', 'referee'] as const;
    planned.forEach((id, i) => {
      const army = s.armies[id];
      if (!army) return;
      const enemies = ids.filter((o) => isHostile(s.sides, army.side, s.armies[o]?.side ?? ''));
      const kind = kinds[i % kinds.length] ?? 'hold';
      const order: PlanOrder = kind === 'patrol' ? { kind, points: [one(land, 'patrol a'), one(land, 'patrol b')] }
        : kind === 'march' ? { kind, to: one(land, 'march') }
          : kind === 'shadow' ? { kind, target: one(enemies, 'quarry') }
            : kind === 'withdraw' ? { kind, to: one(land, 'fall back') }
              : kind === 'garrison' ? { kind, town: one(towns, 'town') }
                : { kind: 'hold' };
      const plan = checkPlan(s, map, { armyId: id, order, contact: policies[i % policies.length] ?? 'evade', setBy: 'soak' });
      const hold = checkPlan(s, map, { armyId: id, order: { kind: 'hold' }, contact: 'evade', setBy: 'soak' });
      const value = plan.ok ? plan.value : hold.ok ? hold.value : undefined;
      if (value) s = { ...s, plans: { ...s.plans, [id]: value } };
    });
    expect(Object.keys(s.plans)).toHaveLength(planned.length);
    const kindsUsed = new Set(Object.values(s.plans).map((p) => p.order.kind));
    expect(kindsUsed.size).toBeGreaterThanOrEqual(5);

    const tickPlan = followingPlans(TICK_PLAN, new Set(planned));
    const deadline = Math.max(1, s.settings.decisionDeadlineTicks ?? 1);
    const broken: string[] = [];
    const waiting = new Map<string, number>();
    let decisions = 0;
    let answers = 0;
    let contactsSeen = 0;
    let battles = 0;
    for (let k = 0; k < HALVES; k++) {
      // The commanded half: random legal orders.
      for (const id of commanded) {
        const army = s.armies[id];
        if (!army || army.status.destroyed || army.status.embarked || army.status.inContact || army.march.operation) continue;
        const r = pick.d6(`order ${id}`);
        if (r <= 3) {
          const plan = planMove(s, map, TICK_PLAN.effects(s), id, { to: one(land, 'target'), period: defaultPeriod(army), forced: false, unformed: pick.d6('unformed') === 6, save: false, crossAtEnd: false, givenBy: 'player' });
          if (plan.ok) s = { ...s, orders: { ...s.orders, [id]: plan.value.order } };
        } else if (r === 4) {
          s = { ...s, orders: { ...s.orders, [id]: { armyId: id, kind: 'rest', givenBy: 'player', givenAt: s.clock } } };
        }
      }
      // Their contacts answered at random (the plans answer their own at the tick).
      for (const c of Object.values(s.contacts).filter(isOpen)) {
        for (const id of c.armyIds.filter((a) => commanded.includes(a))) {
          if (c.step === 'step1' && pick.d6('answer?') <= 4) {
            const choice: Step1Choice = one([{ kind: 'proceed' }, { kind: 'silent' }, { kind: 'delay' }] as const, 'step1');
            const r = chooseStep1(s, map, c.id, id, choice);
            if (r.ok) s = r.value.state;
          } else if (c.step === 'decision' && pick.d6('answer?') <= 4) {
            const r = chooseDecision(s, c.id, id, canEvade(c, id) && pick.d6('evade') <= 3 ? 'evade' : 'engage');
            if (r.ok) s = r.value.state;
          }
        }
      }
      const before = s;
      const out = resolveTick(s, map, new SeededDice(createRngState(1000 + k)), tickPlan);
      s = out.state;
      // Every battle is recorded (no losses: the tabletop is not the point here).
      for (const c of Object.values(s.contacts).filter((x) => x.step === 'battle')) {
        const r = applyBattleResult(s, map, c.id, { losses: {}, withdrawals: [], pursuers: [] }, new SeededDice(createRngState(5000 + k)));
        if (!r.ok) broken.push(`half ${k}: battle ${c.id} not recorded: ${r.violation.message}`);
        else { s = r.value.state; battles++; }
      }
      // 1. Invariants.
      for (const b of invariants(s, (h) => map.inBounds(h))) broken.push(`half ${k}: ${b}`);
      // 2. No contact waits past its deadline (a standing contact's new round is a new wait).
      const open = Object.values(s.contacts).filter((c) => c.step === 'step1' || c.step === 'decision');
      const keyOf = (c: (typeof open)[number]): string => `${c.id}:${c.step}:${timeIndex(c.openedAt)}:${c.data.stepAt ?? ''}`;
      for (const c of open) {
        const key = keyOf(c);
        if (!waiting.has(key)) contactsSeen++;
        const ticks = (waiting.get(key) ?? 0) + 1;
        waiting.set(key, ticks);
        if (ticks > deadline + 1) broken.push(`half ${k}: contact ${c.id} has waited ${ticks} ticks at ${c.step} (armies ${c.armyIds.join(', ')})`);
      }
      for (const key of [...waiting.keys()]) if (!open.some((c) => keyOf(c) === key)) waiting.delete(key);
      // 3. Every change of a plan army's order is explained to the referee, with its reason, in that tick.
      const told = new Map<string, EngineEvent[]>();
      for (const e of out.events.filter((x) => x.type === 'planDecided')) {
        if (e.audience.kind !== 'referee') broken.push(`half ${k}: a plan decision for ${e.audience.kind}`);
        const armyId = (e.data as { armyId: string }).armyId;
        told.set(armyId, [...(told.get(armyId) ?? []), e]);
        if (!/^Plan of .+ \(.+\): .+: .+\.$/s.test(e.text)) broken.push(`half ${k}: a plan decision without its reason: ${e.text}`);
        decisions++;
        if ((e.data as { action: string }).action === 'answer') answers++;
      }
      for (const id of planned) {
        const now = s.orders[id];
        if (now?.givenBy !== PLAN_GIVER) continue;
        if (aim(now) !== aim(before.orders[id]) && !told.has(id)) broken.push(`half ${k}: ${id}'s plan changed its order (${aim(before.orders[id])} -> ${aim(now)}) without telling the referee why`);
      }
    }
    expect(broken.slice(0, 10)).toEqual([]);
    // The season did what a season does: plans decided, contacts came and were answered by policy.
    expect(decisions).toBeGreaterThan(50);
    expect(contactsSeen).toBeGreaterThan(0);
    expect(answers).toBeGreaterThan(0);
    console.log(`plan soak: ${HALVES} half periods, ${decisions} plan decisions told (${answers} contact answers), ${contactsSeen} contact waits, ${battles} battles recorded`);
  }, 600_000);
});
