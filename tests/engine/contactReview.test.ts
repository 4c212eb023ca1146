import { describe, expect, it } from 'vitest';
import { assumeRole, baselines, battlefieldSketchOf, chooseStep1, declareReinforce, exploit, placeTerrainCardFromSide, relief, resolveStep1, splitContact, terrainHand } from '../../src/engine/contact/index.js';
import { deploy, type DeploymentInput } from '../../src/engine/contact/deployment.js';
import { meleeOnDay } from '../../src/engine/contact/queries.js';
import { isAdjacent, neighbours } from '../../src/engine/hex/neighbours.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState, DealtCard } from '../../src/engine/state/index.js';
import { asciiMap, dice, makeState, withContact } from './contactFixtures.js';

const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

describe('001 Deployment Initiative: "Still a tie, dice for it"', () => {
  it('GIVEN equal scores, equal dice and a tied roll-off THEN the roll-off is rolled again (not won by the first listed)', () => {
    const base = { maneuver: false, formation: 'battalions' as const, companies: 4, contactRaw: 3, contactModified: 3, opponentTerrains: ['forest' as const] };
    const inputs: DeploymentInput[] = [{ ...base, armyId: 'x' }, { ...base, armyId: 'y' }];
    // Deployment dice 4 and 4; roll-off 5 and 5 (tie), then 2 and 6.
    const d = dice(4, 4, 5, 5, 2, 6);
    const b = deploy(inputs, baselines(48, 7.5), d);
    expect(b.initiativeBy).toBe('rolloff');
    expect(b.initiative).toBe('y');
    expect(d.rolls.filter((r) => /roll-off/.test(r.purpose))).toHaveLength(4);
  });
});

describe('001 Terrain Reconnaissance: "Still a tie, dice for it"', () => {
  it('GIVEN equal contact dice and a tied roll-off THEN the roll-off is rolled again to decide the first draw', () => {
    let s: CampaignState = withContact(makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } }), ['hadewych', 'ingegerd']);
    for (const id of ['hadewych', 'ingegerd']) s = must(chooseStep1(s, clear, 'c1', id, { kind: 'proceed' })).state;
    // Contact dice 3 and 3 (+1 clear each: 4, the +-25% row): two 2d6 estimates, then the roll-off 5-5 (tie), then 2-6.
    const d = dice(3, 3, 3, 4, 3, 4, 5, 5, 2, 6);
    const out = must(resolveStep1(s, clear, 'c1', d));
    const rolloffs = d.rolls.filter((r) => /first draw roll-off/.test(r.purpose));
    expect(rolloffs.map((r) => r.value)).toEqual([5, 5, 2, 6]);
    // Ingegerd wins the first draw; with no difference in the dice she still draws first (one card).
    const cards = out.state.contacts.c1!.data.terrain ?? [];
    expect(cards.map((c) => c.armyId)).toEqual(['ingegerd', 'hadewych', 'ingegerd', 'hadewych', 'ingegerd', 'hadewych', 'ingegerd', 'hadewych']);
  });
});

describe('001 Support: Relief finds the current support role', () => {
  it('GIVEN a supporter that supported another force in an older contact THEN relief uses its current role', () => {
    // Day 1: lanze supported grallune in c1 (now over). Day 2: lanze supports ingegerd in c2.
    let s: CampaignState = makeState({
      hadewych: { side: 'chaos', hex: '0303' },
      ingegerd: { side: 'law', hex: '0302' },
      lanze: { side: 'law', hex: '0301' },
      grallune: { side: 'law', hex: '0606' },
    }, { day: 2, half: 0 });
    const old = { id: 'c1', armyIds: ['grallune', 'oberon'], hexes: [], openedAt: { day: 1, half: 0 as const }, step: 'closed' as const, data: { supports: { lanze: 'grallune' }, outcome: 'fightOnMorrow' as const } };
    s = { ...s, contacts: { c1: old }, nextId: 2 };
    s = withContact(s, ['hadewych', 'ingegerd'], 'c2');
    s = must(assumeRole(s, 'lanze', 'support', 'ingegerd')).state;
    const out = must(relief(s, clear, 'lanze'));
    expect(out.state.contacts.c2?.armyIds).toEqual(['hadewych', 'lanze']);
    expect(out.state.armies.lanze?.status.inContact).toBe(true);
    expect(out.state.armies.ingegerd?.status.inContact).toBe(false);
  });
});

describe('001 Map Contact: Three or More Forces — a split keeps each group its own roles', () => {
  /** Hadewych (0403) faces Ingegerd (0303); Lanze (0302) supports Ingegerd, Gyrhawk (0301) is her reserve; Solon faces Aeskrvald far off. */
  function fourForces(): CampaignState {
    let s: CampaignState = makeState({
      hadewych: { side: 'chaos', hex: '0403' },
      ingegerd: { side: 'law', hex: '0303' },
      lanze: { side: 'law', hex: '0302' },
      gyrhawk: { side: 'law', hex: '0301' },
      solon: { side: 'chaos', hex: '0606' },
      aeskrvald: { side: 'law', hex: '0605' },
    });
    s = withContact(s, ['hadewych', 'ingegerd', 'solon', 'aeskrvald']);
    s = must(assumeRole(s, 'lanze', 'support', 'ingegerd')).state;
    s = must(assumeRole(s, 'gyrhawk', 'reserve', 'ingegerd')).state;
    return s;
  }

  it('GIVEN a reinforce declared before the split THEN the group of the supported force keeps it, with its reserve', () => {
    let s = must(declareReinforce(fourForces(), 'lanze', true)).state;
    const out = must(splitContact(s, clear, 'c1', [['solon', 'aeskrvald'], ['hadewych', 'ingegerd']]));
    s = out.state;
    const [other, mine] = out.contactIds.map((id) => s.contacts[id]!.data);
    expect(mine?.supports).toEqual({ lanze: 'ingegerd' });
    expect(mine?.reinforce).toEqual({ lanze: true });
    expect(mine?.reserves).toEqual({ gyrhawk: 'ingegerd' });
    expect(other?.supports ?? {}).toEqual({});
  });

  it('GIVEN a split THEN a reinforce declared afterwards lands on the supported force\'s contact, and the reserve cannot exploit before it is resolved', () => {
    let s = fourForces();
    const out = must(splitContact(s, clear, 'c1', [['solon', 'aeskrvald'], ['hadewych', 'ingegerd']]));
    s = must(declareReinforce(out.state, 'lanze', true)).state;
    const mine = out.contactIds[1] as string;
    expect(s.contacts[mine]!.data.reinforce).toEqual({ lanze: true });
    const lanze = s.armies.lanze!.hex;
    const hadewych = s.armies.hadewych!.hex;
    const to = neighbours(lanze).find((h) => isAdjacent(h, hadewych) && !Object.values(s.armies).some((a) => a.hex.q === h.q && a.hex.r === h.r));
    expect(to).toBeDefined();
    const early = exploit(s, clear, 'gyrhawk', to!);
    expect(early.ok ? 'ok' : early.violation.code).toBe('contact.exploitTooEarly');
  });
});

describe('RULINGS 5 Terrain reconnaissance with three forces: allies share a side of the table', () => {
  /** Hadewych (Chaos) against Ingegerd and Aeskrvald (Law); Ingegerd drew the first card. */
  function dealt(): CampaignState {
    const s = withContact(makeState({
      hadewych: { side: 'chaos', hex: '0303' },
      ingegerd: { side: 'law', hex: '0302' },
      aeskrvald: { side: 'law', hex: '0403' },
    }), ['hadewych', 'ingegerd', 'aeskrvald']);
    const terrain: DealtCard[] = [
      { armyId: 'ingegerd', card: 'hill', cell: { row: 'near', column: 'left' }, orientation: 0 },
      { armyId: 'aeskrvald', card: 'woods', cell: { row: 'far', column: 'centre' }, orientation: 90 },
      { armyId: 'hadewych', card: 'marsh', cell: { row: 'middle', column: 'right' }, orientation: 0 },
    ];
    const c = s.contacts.c1!;
    return { ...s, contacts: { c1: { ...c, step: 'decision', data: { ...c.data, terrain } } } };
  }

  it('GIVEN the ally of the first drawer THEN it sees the table from its own (the same) side, and the enemy sees it turned', () => {
    const s = dealt();
    const c = s.contacts.c1!;
    const ally = battlefieldSketchOf(s, c, 'aeskrvald');
    const first = battlefieldSketchOf(s, c, 'ingegerd');
    const enemy = battlefieldSketchOf(s, c, 'hadewych');
    expect(ally.cards).toEqual(first.cards);
    expect(enemy.cards[0]).toMatchObject({ row: 'far', column: 'right', orientation: 180 });
    expect(ally.farSide).toBe('Hadewych');
    expect(ally.nearSide).toMatch(/Aeskrvald/);
    expect(terrainHand(c, 'aeskrvald', s)[0]).toMatchObject({ cell: { row: 'far', column: 'centre' }, orientation: 90 });
  });

  it('GIVEN the ally places a card near left THEN it lies near left on the first drawer\'s side too', () => {
    const s = must(placeTerrainCardFromSide(dealt(), 'c1', 'aeskrvald', 1, { row: 'near', column: 'left' }, 0)).state;
    const stored = (s.contacts.c1!.data.terrain ?? [])[1];
    expect(stored).toMatchObject({ armyId: 'aeskrvald', cell: { row: 'near', column: 'left' }, orientation: 0 });
  });
});

describe('001 Fresh cavalry: "has not engaged in melee today"', () => {
  it('GIVEN a contact made at night whose battle was fought the next morning THEN the melee counts for the day of the battle', () => {
    const s = makeState({ hadewych: { side: 'chaos', hex: '0303' }, ingegerd: { side: 'law', hex: '0302' } }, { day: 2, half: 1 });
    const battle = { id: 'c1', armyIds: ['hadewych', 'ingegerd'], hexes: [], openedAt: { day: 1, half: 3 as const }, step: 'closed' as const, data: { outcome: 'battle' as const, combatants: ['hadewych', 'ingegerd'], halfSpent: { hadewych: 4, ingegerd: 4 } } };
    const st: CampaignState = { ...s, contacts: { c1: battle } };
    expect([...meleeOnDay(st, 2)].sort()).toEqual(['hadewych', 'ingegerd']);
    expect([...meleeOnDay(st, 1)]).toEqual([]);
  });
});
