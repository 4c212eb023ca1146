import { describe, expect, it } from 'vitest';
import { baselines } from '../../src/engine/contact/baselines.js';
import type { ContactFact } from '../../src/engine/contact/contactEvents.js';
import { deploy } from '../../src/engine/contact/deployment.js';
import { describeConditions, describeContact, describeEstimate, describeStep } from '../../src/engine/contact/describeContact.js';
import { namesOf, PUBLIC, REFEREE, toArmy } from '../../src/engine/events/events.js';
import { dice, makeArmy } from './contactFixtures.js';
import type { DisengagementOutcome, Estimate } from '../../src/engine/state/index.js';

const names = namesOf(Object.fromEntries(['hadewych', 'ingegerd', 'aeskrvald', 'arn'].map((id) => [id, makeArmy(id, { side: 'law', hex: '0101' })])));
const say = (f: ContactFact): string => describeContact(f, names);
const estimate = (patch: Partial<Estimate>): Estimate => ({ observerId: 'hadewych', targetId: 'ingegerd', modifiedDie: 4, awareness: 'estimate', sizeBand: 'pm25', compositionLevel: 'types', ...patch });

describe('describeContact: steps and estimates', () => {
  it('GIVEN each step THEN the words a commander or the referee reads', () => {
    expect(describeStep('step1')).toBe('before the contact phase (proceed, delay, avoid or stay silent)');
    expect(describeStep('decision')).toBe('after the contact phase (engage or evade)');
    expect(describeStep('battle')).toBe('battle joined, waiting for the referee to record the result');
    expect(describeStep('closed')).toBe('over');
  });

  it('GIVEN an estimate at each level of the contact table THEN what the commander learns', () => {
    expect(describeEstimate(estimate({ awareness: 'unaware', modifiedDie: 1 }), 'Ingegerd')).toBe('Ingegerd: you are unaware of this enemy (contact die 1).');
    expect(describeEstimate(estimate({ awareness: 'aware', modifiedDie: 2 }), 'Ingegerd')).toBe('Ingegerd: an enemy is near, but your scouts could estimate nothing (contact die 2).');
    expect(describeEstimate(estimate({ estimatedFigures: 15, estimatedTroops: 600, composition: { basic: ['infantry'] } }), 'Ingegerd'))
      .toBe('Ingegerd: engaging regiment about 15 figures (600 troops); basic type: infantry.');
    expect(describeEstimate(estimate({ estimatedFigures: 15, estimatedTroops: 600, composition: { basic: ['infantry'], troopTypes: ['heavy foot'] } }), 'Ingegerd'))
      .toBe('Ingegerd: engaging regiment about 15 figures (600 troops); troop types: heavy foot.');
    expect(describeEstimate(estimate({ estimatedFigures: 20, estimatedTroops: 800, composition: { basic: ['infantry', 'cavalry'], proportions: { 'heavy foot': 75, lancers: 25 }, otherRegiments: 1 } }), 'Ingegerd'))
      .toBe('Ingegerd: engaging regiment about 20 figures (800 troops); troops: heavy foot 75%, lancers 25%; 1 other regiment(s).');
    expect(describeEstimate(estimate({ estimatedFigures: 20, estimatedTroops: 800, composition: { basic: ['infantry'], companies: [{ troopType: 'heavy foot', figures: 20 }], individuals: [{ name: 'Ingegerd', kind: 'leader' }] } }), 'Ingegerd'))
      .toBe('Ingegerd: engaging regiment about 20 figures (800 troops); companies: 20 heavy foot; with Ingegerd (leader).');
    // The accurate size row (001 Contact Table: a modified die of 6 or more) estimates exactly.
    expect(describeEstimate(estimate({ modifiedDie: 6, sizeBand: 'accurate', sizeErrorPercent: 0, estimatedFigures: 20, estimatedTroops: 800, composition: { basic: ['infantry'], companies: [{ troopType: 'heavy foot', figures: 20 }], otherRegiments: 0 } }), 'Ingegerd'))
      .toBe('Ingegerd: engaging regiment 20 figures (800 troops); companies: 20 heavy foot; 0 other regiment(s).');
  });
});

describe('describeContact: what a contact move did to the force', () => {
  it('GIVEN a contact move into ground that demands unformed movement, or away from the rally point THEN its commander reads it', () => {
    const noted = (becameUnformed: boolean, stragglersLost: number): string => say({ type: 'contactMoveNoted', audience: toArmy('hadewych'), data: { armyId: 'hadewych', to: '0304', becameUnformed, stragglersLost, rallyPoint: '0303' } });
    expect(noted(true, 0)).toBe('Hadewych moved unformed into 0304: stragglers are counted at daybreak, and a day without movement reforms it.');
    expect(noted(false, 2)).toBe('2 straggling figure(s) left behind at 0303 are lost.');
    expect(noted(true, 1)).toBe('Hadewych moved unformed into 0304: stragglers are counted at daybreak, and a day without movement reforms it; 1 straggling figure(s) left behind at 0303 are lost.');
  });
});

describe('describeContact: step 1 and the contact phase', () => {
  it('GIVEN a contact made THEN who and where, as it was opened or joined', () => {
    expect(say({ type: 'contactMade', audience: PUBLIC, data: { how: 'opened', contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], hexes: ['0303', '0302'] } })).toBe('Contact: Hadewych (0303), Ingegerd (0302).');
    expect(say({ type: 'contactMade', audience: PUBLIC, data: { how: 'exploitJoined', contactId: 'c2', armyIds: ['hadewych', 'arn'], armyId: 'arn' } })).toBe('Arn joins contact c2.');
    expect(say({ type: 'contactMade', audience: PUBLIC, data: { how: 'forcedJoined', contactId: 'c2', armyIds: ['ingegerd', 'arn', 'hadewych'], newcomers: [{ armyId: 'hadewych', hex: '0303' }], forcedBy: 'hadewych' } }))
      .toBe("Contact: Hadewych (0303) joins contact c2, forced by Hadewych's maneuver.");
    expect(say({ type: 'contactMade', audience: PUBLIC, data: { how: 'forcedJoined', contactId: 'c2', armyIds: ['ingegerd', 'arn', 'hadewych'], newcomers: [{ armyId: 'hadewych', hex: '0303' }, { armyId: 'arn', hex: '0402' }], forcedBy: 'hadewych' } }))
      .toBe("Contact: Hadewych (0303), Arn (0402) join contact c2, forced by Hadewych's maneuver.");
  });

  it('GIVEN step 1 answers resolved THEN the disengagements, the avoid and the fight on the morrow are told', () => {
    expect(say({ type: 'forceDisengaged', audience: PUBLIC, data: { armyId: 'hadewych', operation: 'avoid', opposed: false } })).toBe('Hadewych avoided contact; nobody stayed to oppose it.');
    expect(say({ type: 'forceDisengaged', audience: PUBLIC, data: { armyId: 'hadewych', operation: 'delay', opposed: false } })).toBe('Hadewych broke contact; nobody stayed to oppose it.');
    expect(say({ type: 'armyAvoided', audience: PUBLIC, data: { armyId: 'hadewych', to: '0304' } })).toBe('Hadewych moved away to 0304.');
    expect(say({ type: 'avoidForcedMarch', audience: toArmy('hadewych'), data: { armyId: 'hadewych', to: '0304', day: 1 } })).toBe('Hadewych avoided to 0304 by a forced march: rest all of tomorrow or be fatigued.');
    expect(say({ type: 'avoidBlocked', audience: toArmy('hadewych'), data: { armyId: 'hadewych', to: '0304', violation: { code: 'contact.avoidOccupied', message: '0304 holds another commander.' } } }))
      .toBe('Hadewych could not move to 0304 after avoiding: 0304 holds another commander.');
    expect(say({ type: 'contactDeferred', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'] } }))
      .toBe('No commander pressed the contact (fight on the morrow): Hadewych and Ingegerd are out of contact for the rest of this half period, and in contact again at the start of the next if they still face each other.');
    // The same forces deferring again: a standoff going on (the chronicle leaves it out).
    expect(say({ type: 'contactDeferred', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], again: true } }))
      .toBe('Still nobody pressed the contact (fight on the morrow): Hadewych and Ingegerd are out of contact for the rest of this half period again, and in contact at the start of the next if they still face each other.');
  });

  it('GIVEN the contact phase THEN scouts, dice, hour and estimates to each commander, the truth to the referee, no number to the channel', () => {
    expect(say({ type: 'scoutsReturned', audience: toArmy('aeskrvald'), data: { contactId: 'c1', scouts: ['successful', 'captured'] } })).toBe('Your scouts: successful, captured.');
    expect(say({ type: 'scoutCaptured', audience: toArmy('hadewych'), data: { contactId: 'c1', from: 'aeskrvald' } })).toBe('Your pickets captured a scout of Aeskrvald.');
    const die = { raw: 5, modifiers: [{ code: 'scouts' as const, label: 'successful scouts', value: 1 }, { code: 'opponentsMountain' as const, label: 'all opponents in mountain terrain', value: -1 }], modified: 5 };
    expect(say({ type: 'contactEstimated', audience: toArmy('hadewych'), data: { contactId: 'c1', die, hour: 10, estimates: { ingegerd: estimate({ awareness: 'aware', modifiedDie: 2 }) } } }))
      .toBe('Contact dice 5 +1 (successful scouts) -1 (all opponents in mountain terrain) = 5. Contact at the 10th hour. Ingegerd: an enemy is near, but your scouts could estimate nothing (contact die 2).');
    expect(say({ type: 'contactEstimated', audience: toArmy('hadewych'), data: { contactId: 'c1', die: { raw: 1, modifiers: [], modified: 1 }, hour: 3, estimates: {} } }))
      .toBe('Contact dice 1 = 1. Contact at the 3rd hour.  You are unaware of the enemy and cannot evade.');
    expect(say({ type: 'terrainDealt', audience: toArmy('hadewych'), data: { contactId: 'c1', cards: ['hill', 'woods', 'roughGround'], order: [] } })).toBe('Your terrain cards: hill, woods, rough ground.');
    expect(say({ type: 'terrainDealt', audience: toArmy('hadewych'), data: { contactId: 'c1', cards: [], order: [] } })).toBe('Your terrain cards: none.');
    const truth = { armyId: 'hadewych', figures: 20, troops: 800, regiments: 1, companies: [], individuals: [] };
    expect(say({ type: 'contactTruth', audience: REFEREE, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], contactDice: { hadewych: { raw: 2, modifiers: [], modified: 3 }, ingegerd: { raw: 6, modifiers: [], modified: 6 } }, truth: { hadewych: truth, ingegerd: { ...truth, armyId: 'ingegerd', figures: 18 } }, estimates: {}, scouts: {}, terrain: [], hour: 8 } }))
      .toBe('Contact c1: Hadewych die 2 -> 3, engaging 20 figures; Ingegerd die 6 -> 6, engaging 18 figures; hour 8.');
    expect(say({ type: 'contactPhaseRun', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd', 'aeskrvald'] } }))
      .toBe('Contact phase between Hadewych, Ingegerd, Aeskrvald: each commander now chooses to engage or evade.');
  });
});

describe('describeContact: the conditions of a battle, for the table', () => {
  it('GIVEN a clear day THEN the hour and the sky only', () => {
    expect(describeConditions({ hour: 10, night: false, sky: 'clear', rainLevel: 0, highWinds: false }, names)).toEqual([
      { label: 'Hour', text: 'Contact at the 10th hour.' },
      { label: 'Weather', text: 'Clear.' },
    ]);
  });

  it('GIVEN a night battle in fog after hard rain, with high winds THEN every condition, fog\'s visibility in yards', () => {
    expect(describeConditions({ hour: 16, night: true, sky: 'hardRain', rainLevel: 2, highWinds: true, fog: { die: 4, yards: 120 } }, names)).toEqual([
      { label: 'Hour', text: 'Contact at the 16th hour: a night battle.' },
      { label: 'Weather', text: 'Hard rain; high winds: missile fire scores one hit fewer (catapults unaffected).' },
      { label: 'Visibility', text: 'Fog: 120 yards (die 4 x 30); creatures hurt by bright light suffer nothing from the sun.' },
      { label: 'Ground', text: 'Soft and muddy after the rain (rain level 2).' },
    ]);
  });

  it('GIVEN three forces in one battle THEN how they stand on the map', () => {
    const arrangement = [
      { armyId: 'hadewych', hex: '0303', next: [{ armyId: 'ingegerd', direction: 'n' as const, enemy: true }, { armyId: 'aeskrvald', direction: 'se' as const, enemy: true }] },
      { armyId: 'ingegerd', hex: '0302', next: [{ armyId: 'hadewych', direction: 's' as const, enemy: true }] },
      { armyId: 'aeskrvald', hex: '0403', next: [{ armyId: 'hadewych', direction: 'nw' as const, enemy: true }] },
    ];
    const parts = describeConditions({ hour: 10, night: false, sky: 'cloudy', rainLevel: 0, highWinds: false, arrangement }, names);
    expect(parts.at(-1)).toEqual({ label: 'Arrangement', text: 'The forces deploy as they stand on the map. Hadewych at 0303: Ingegerd (enemy) to the north, Aeskrvald (enemy) to the south-east; Ingegerd at 0302: Hadewych (enemy) to the south; Aeskrvald at 0403: Hadewych (enemy) to the north-west.' });
  });

  it('GIVEN each force\'s own state THEN its commander reads it, the referee all of them', () => {
    const fresh = { armyId: 'ingegerd', fatigued: false, unformed: false, asIfInRetreat: false };
    const worn = { armyId: 'hadewych', fatigued: true, unformed: true, asIfInRetreat: true, raftsDefence: { phase: 'build' as const, share: 1 / 3 }, debarking: { present: ['First'], awaited: ['Second', 'Third'] } };
    expect(say({ type: 'forceCondition', audience: toArmy('ingegerd'), data: { contactId: 'c1', condition: fresh } })).toBe('Battle c1, your force at the table: formed, not fatigued, with all its force.');
    expect(say({ type: 'forceCondition', audience: toArmy('hadewych'), data: { contactId: 'c1', condition: worn } })).toBe('Battle c1, your force at the table: fatigued from the march: it fights fatigued; unformed: its units begin the battle unrallied, as if in retreat, each rallying at the end of the first turn of mass combat unless attacked; building rafts (building): it defends with one third of its force; still debarking: only First is ashore to fight; Second and Third still to come.');
    expect(say({ type: 'forceCondition', audience: toArmy('hadewych'), data: { contactId: 'c1', condition: { ...fresh, unformed: true } } })).toBe('Battle c1, your force at the table: unformed.');
    expect(say({ type: 'forceConditions', audience: REFEREE, data: { contactId: 'c1', conditions: [fresh, { ...fresh, armyId: 'hadewych', fatigued: true }] } })).toBe('Battle c1, the forces at the table: Ingegerd: formed, not fatigued, with all its force; Hadewych: fatigued from the march: it fights fatigued.');
  });
});

describe('describeContact: engage or evade, and the battle', () => {
  const layout = baselines(48, 6);
  const briefing = deploy([
    { armyId: 'hadewych', contactRaw: 2, contactModified: 2, maneuver: false, opponentTerrains: ['clear'], formation: 'figures4x10', companies: 1 },
    { armyId: 'ingegerd', contactRaw: 5, contactModified: 5, maneuver: false, opponentTerrains: ['clear'], formation: 'figures4x10', companies: 1 },
  ], layout, dice(3, 4));

  it('GIVEN everyone evading, or a battle joined THEN the channel hears who, the referee the deployment dice', () => {
    expect(say({ type: 'contactEvaded', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'] } })).toBe('Hadewych and Ingegerd broke off: no battle.');
    const { entries, ...rest } = briefing;
    expect(say({ type: 'battleJoined', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], hexes: ['0303', '0302'], deployment: { ...rest, entries: entries.map(({ modifiers: _m, ...e }) => e) }, conditions: { hour: 10, night: false, sky: 'clear', rainLevel: 0, highWinds: false } } }))
      .toBe('Battle joined at 0303/0302 between Hadewych and Ingegerd. The deployment briefing is posted; the referee records the result with /battle result.');
    const told = say({ type: 'deploymentRolled', audience: REFEREE, data: { contactId: 'c1', deployment: briefing } });
    expect(told).toBe('Deployment for c1: Hadewych 3 +1 (all opponents in clear terrain) = 4; Ingegerd 4 +1 (highest unmodified contact dice) +1 (all opponents in clear terrain) = 6; initiative Ingegerd.');
  });

  it('GIVEN a battle recorded THEN each commander their own figures, the referee everything, the channel who withdrew', () => {
    expect(say({ type: 'battleLossesApplied', audience: toArmy('hadewych'), data: { contactId: 'c1', armyId: 'hadewych', regiments: [{ name: 'Hadewych first regiment', figures: 8, strength: 40 }, { name: 'Hadewych regiment 2', figures: 20, strength: 100 }] } }))
      .toBe('After the battle: Hadewych first regiment 8 figures (40%); Hadewych regiment 2 20 figures (100%).');
    expect(say({ type: 'battleRecorded', audience: REFEREE, data: { contactId: 'c1', result: { losses: { hadewych: { 'hadewych-1': 4 } }, withdrawals: [{ armyId: 'hadewych', condition: 'rout' }] }, outcomes: [] } }))
      .toBe('Battle c1 recorded: Hadewych lost hadewych-1 4 figures; Hadewych withdrew in rout.');
    expect(say({ type: 'battleRecorded', audience: REFEREE, data: { contactId: 'c1', result: { losses: {} }, outcomes: [] } })).toBe('Battle c1 recorded: no losses entered from the table; nobody withdrew.');
    expect(say({ type: 'battleFought', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], withdrew: ['hadewych'] } })).toBe('The battle between Hadewych and Ingegerd is over; Hadewych withdrew.');
    expect(say({ type: 'battleFought', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], withdrew: [] } })).toBe('The battle between Hadewych and Ingegerd is over.');
    expect(say({ type: 'battleFought', audience: PUBLIC, data: { contactId: 'c1', armyIds: ['hadewych', 'ingegerd'], withdrew: ['hadewych', 'ingegerd'], pushedBack: { ingegerd: '0301' } } }))
      .toBe('The battle between Hadewych and Ingegerd is over; Hadewych withdrew, Ingegerd withdrew and was pushed back to 0301.');
  });

  it('GIVEN a split THEN the channel hears the engagements', () => {
    expect(say({ type: 'contactSplit', audience: PUBLIC, data: { contactId: 'c1', into: ['c2', 'c3'], groups: [['hadewych', 'ingegerd'], ['arn', 'aeskrvald']] } }))
      .toBe('The referee split the contact into 2 engagements: Hadewych vs Ingegerd; Arn vs Aeskrvald.');
  });
});

describe('describeContact: disengagements and operations', () => {
  const outcome: DisengagementOutcome = {
    operation: 'withdraw', armyId: 'hadewych', die: 1, modifiers: [{ code: 'rout', label: 'formation: rout', value: -2 }, { code: 'rearguard', label: 'tactics: rearguard', value: 1 }], modified: 0,
    against: [{ opponentId: 'ingegerd', die: 1, modifiers: [], modified: 6, difference: -6, row: 6, cell: { percent: 50, displaced: true, destroyed: false } }],
    percent: 50, figuresLost: 4, regimentId: 'hadewych-1', destroyed: false, linesDown: 0,
  };

  it('GIVEN a disengagement roll THEN its commander and the referee read every number; the opponent its own die; the channel the outcome', () => {
    expect(say({ type: 'disengagementRolled', audience: toArmy('hadewych'), data: { outcome, regimentName: 'Hadewych first regiment', displacedTo: '0304' } }))
      .toBe('Hadewych withdrew: die 1 -2 (in rout) +1 (rearguard) = 0; against Ingegerd: 0 vs 6 (difference -6) -> 50% D. Losses 50% of Hadewych first regiment (4 figures), displaced to 0304.');
    expect(say({ type: 'disengagementRolled', audience: REFEREE, data: { outcome: { ...outcome, operation: 'evade', destroyed: true, reinforcedBy: 'arn', against: [{ ...outcome.against[0]!, cell: { percent: 100, displaced: false, destroyed: true } }] } } }))
      .toBe('Hadewych evaded: die 1 -2 (in rout) +1 (rearguard) = 0; against Ingegerd: 0 vs 6 (difference -6) -> destroyed. Losses 50% of the assault regiment (4 figures), regiment destroyed, displacement prevented by Arn.');
    expect(say({ type: 'disengagementOpposed', audience: toArmy('ingegerd'), data: { armyId: 'hadewych', operation: 'delay', die: 4, modifiers: [{ code: 'clear', label: 'terrain: favorable', value: 1 }], modified: 5 } }))
      .toBe('Hadewych fought a delaying action; your die 4 +1 (clear) = 5.');
    expect(say({ type: 'forceDisengaged', audience: PUBLIC, data: { armyId: 'hadewych', operation: 'withdraw', opposed: true, to: '0304' } })).toBe('Hadewych withdrew and was pushed back to 0304.');
    expect(say({ type: 'forceDisengaged', audience: PUBLIC, data: { armyId: 'hadewych', operation: 'evade', opposed: true } })).toBe('Hadewych evaded.');
    expect(say({ type: 'forceDisengaged', audience: PUBLIC, data: { armyId: 'hadewych', operation: 'avoid', opposed: true } })).toBe('Hadewych avoided contact.');
    expect(say({ type: 'forceDisplaced', audience: PUBLIC, data: { armyId: 'arn', to: '0305' } })).toBe('Arn was pushed back to 0305.');
    expect(say({ type: 'armyDestroyed', audience: PUBLIC, data: { armyId: 'hadewych' } })).toBe('Hadewych has been destroyed.');
  });

  it('GIVEN support, reserve and maneuver operations THEN the channel hears who did what', () => {
    expect(say({ type: 'roleAssumed', audience: PUBLIC, data: { armyId: 'arn', role: 'support', supportedId: 'ingegerd' } })).toBe('Arn supports Ingegerd.');
    expect(say({ type: 'roleAssumed', audience: PUBLIC, data: { armyId: 'aeskrvald', role: 'reserve', supportedId: 'ingegerd' } })).toBe('Aeskrvald stands in reserve for Ingegerd.');
    expect(say({ type: 'reinforceDeclared', audience: toArmy('arn'), data: { armyId: 'arn', on: true } })).toBe('You will reinforce if the supported force is displaced.');
    expect(say({ type: 'reinforceDeclared', audience: toArmy('arn'), data: { armyId: 'arn', on: false } })).toBe('You will not reinforce.');
    expect(say({ type: 'forceRelieved', audience: PUBLIC, data: { supporterId: 'arn', supportedId: 'ingegerd' } })).toBe('Arn relieved Ingegerd.');
    expect(say({ type: 'supportSwitched', audience: PUBLIC, data: { reserveId: 'aeskrvald', supporterId: 'arn' } })).toBe('Aeskrvald moved up to support; Arn fell back to reserve.');
    expect(say({ type: 'forceExploited', audience: PUBLIC, data: { reserveId: 'aeskrvald', through: 'arn', to: '0404' } })).toBe('Aeskrvald exploited through Arn to 0404.');
    expect(say({ type: 'armyManeuvered', audience: PUBLIC, data: { armyId: 'hadewych' } })).toBe('Hadewych maneuvers.');
  });
});
