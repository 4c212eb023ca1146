import { describe, expect, it } from 'vitest';
import { fogFalls, knownPositions } from '../../src/engine/knowledge/index.js';
import { learn } from '../../src/engine/knowledge/knowledgeStep.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import type { CourierRecord } from '../../src/engine/water/index.js';
import { commanderMapView, publicMapView } from '../../src/engine/views/index.js';
import { army, campaign, hx } from './movementFixtures.js';

const fog = (s: CampaignState): CampaignState => ({ ...s, settings: { ...s.settings, positions: 'fog' } });
const at = (s: CampaignState, id: string, hex: string): CampaignState => ({ ...s, armies: { ...s.armies, [id]: { ...s.armies[id]!, hex: hx(hex) } } });
const later = (s: CampaignState, halves: number): CampaignState => {
  let t = s.clock;
  for (let i = 0; i < halves; i++) t = t.half === 3 ? { day: t.day + 1, half: 0 } : { day: t.day, half: (t.half + 1) as 0 | 1 | 2 | 3 };
  return { ...s, clock: t };
};

/** Law's Arn at 0505 and Mordred at 0909; Chaos's Grim at 0707 and Vex at 0303 (next to nobody). */
function world(): CampaignState {
  return campaign([army('arn', '0505'), army('mordred', '0909'), army('grim', '0707', { side: 'chaos' }), army('vex', '0303', { side: 'chaos' })]);
}

describe('fog of war: what each army knows of the others (docs/rulings.md)', () => {
  it('GIVEN positions public THEN every army is known where it stands, now', () => {
    const s = world();
    expect(knownPositions(s, ['arn'])['grim']).toMatchObject({ hex: hx('0707'), how: 'public' });
    expect(commanderMapView(s, ['arn']).tokens.map((t) => t.armyId).sort()).toEqual(['arn', 'grim', 'mordred', 'vex']);
  });

  it('GIVEN fog falls THEN each army remembers the other sides where they stood; their later moves are unknown until seen again', () => {
    let s = fog(world());
    s = { ...s, knowledge: fogFalls(s) };
    s = later(at(s, 'grim', '0808'), 2);
    const arnView = commanderMapView(s, ['arn']);
    const grim = arnView.tokens.find((t) => t.armyId === 'grim');
    expect(grim?.hex).toEqual(hx('0707'));
    expect(grim?.seen).toEqual({ how: 'public', ageHalves: 2, label: 'last known Day 1, morning' });
    expect(grim?.flags).toEqual({ inContact: false, inBattle: false, unformed: false, fatigued: false, embarked: false });
    // Mordred (0909) is next to Grim at 0808: he sees it there, now, without an age.
    const mordred = commanderMapView(s, ['mordred']).tokens.find((t) => t.armyId === 'grim');
    expect(mordred?.hex).toEqual(hx('0808'));
    expect(mordred?.seen).toEqual({ how: 'contact', ageHalves: 0 });
    // A side always knows its own: Arn sees Mordred where he is.
    expect(arnView.tokens.find((t) => t.armyId === 'mordred')?.hex).toEqual(hx('0909'));
  });

  it('GIVEN an army never seen (fog from the start) THEN it is not on the map at all, and the public map shows no army', () => {
    const s = fog(world());
    expect(commanderMapView(s, ['arn']).tokens.map((t) => t.armyId).sort()).toEqual(['arn', 'mordred']);
    expect(publicMapView(s).tokens).toEqual([]);
  });

  it('GIVEN fog and an unseen army whose commander shortens to the same label as a shown one THEN the viewer\'s map is the same as without it (labels are worked out over what is shown)', () => {
    const named = (s: CampaignState, id: string, commander: string): CampaignState => ({ ...s, armies: { ...s.armies, [id]: { ...s.armies[id]!, commander } } });
    const base = named(fog(world()), 'mordred', 'Lord Mordred of the Marches');
    // Vex is never seen by Arn; in one world its commander shortens to "Mordred" too.
    const clash = named(base, 'vex', 'Sir Mordred the Black');
    const apart = named(base, 'vex', 'Sir Vex the Black');
    expect(commanderMapView(clash, ['arn'])).toEqual(commanderMapView(apart, ['arn']));
    expect(commanderMapView(clash, ['arn']).tokens.find((t) => t.armyId === 'mordred')?.label).toBe('Mordred');
    // Where both are shown, the clash is written out in full, as before.
    const both = commanderMapView(clash, ['vex', 'mordred']).tokens;
    expect(both.find((t) => t.armyId === 'mordred')?.label).toBe('Lord Mordred of the Marches');
  });

  it('GIVEN a sighting remembered at the end of a tick THEN its age grows and the label names when it was seen', () => {
    let s = fog(at(world(), 'grim', '0506'));
    s = { ...s, clock: { day: 3, half: 2 } };
    s = { ...s, knowledge: learn(s) };
    s = later(at(s, 'grim', '0101'), 3);
    const grim = commanderMapView(s, ['arn']).tokens.find((t) => t.armyId === 'grim');
    expect(grim?.hex).toEqual(hx('0506'));
    expect(grim?.seen).toEqual({ how: 'contact', ageHalves: 3, label: 'seen Day 3, evening' });
  });

  it('GIVEN a courier that carried its sender\'s knowledge WHEN it is delivered THEN the recipient knows what the sender knew when it left, as a report', () => {
    let s = fog(at(world(), 'grim', '0506'));
    s = { ...s, clock: { day: 2, half: 3 } };
    const report = knownPositions(s, ['arn']);
    const courier: CourierRecord = { id: 'k1', fromArmy: 'arn', toArmy: 'mordred', side: 'law', hex: hx('0909'), message: 'hi', sentAt: s.clock, status: 'delivered', data: { horse: true, night: false, carry: 0, expectedBy: 12, trail: [] } };
    s = { ...at(s, 'grim', '0101'), couriers: { k1: courier }, knowledge: { armies: {}, reports: { k1: report } } };
    s = later(s, 1);
    s = { ...s, knowledge: learn(s) };
    expect(s.knowledge.reports).toEqual({});
    const grim = commanderMapView(s, ['mordred']).tokens.find((t) => t.armyId === 'grim');
    expect(grim?.hex).toEqual(hx('0506'));
    expect(grim?.seen).toEqual({ how: 'courier', ageHalves: 1, label: 'reported Day 2, night' });
    // Vex was never seen by Arn: the report does not place it.
    expect(commanderMapView(s, ['mordred']).tokens.some((t) => t.armyId === 'vex')).toBe(false);
  });
});
