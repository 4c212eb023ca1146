import { describe, expect, it } from 'vitest';
import { namesOf, PUBLIC, REFEREE, toArmy } from '../../src/engine/events/events.js';
import { berthLanding, berthWhere, describeWater } from '../../src/engine/water/describeWater.js';
import type { FleetBerth, FleetNote, WaterFact } from '../../src/engine/water/waterEvents.js';
import { army } from './movementFixtures.js';

const names = namesOf({
  sender: { ...army('sender', '0101'), commander: 'Sigurd', name: 'The Host of Sigurd' },
  friend: { ...army('friend', '0401'), commander: 'Frida', name: 'The Host of Frida' },
  orc: { ...army('orc', '0201'), commander: 'Grish', name: 'The Orc Band' },
  aeskrvald: { ...army('aeskrvald', '2304'), commander: 'Prince Aeskr', name: 'Aeskrvald' },
  noerdenheim: { ...army('noerdenheim', '2202'), commander: 'Jarl Hrafnkel', name: 'Noerdenheim' },
});
const say = (f: WaterFact): string => describeWater(f, names);
const morning = { day: 1, half: 0 } as const;
const afternoon = { day: 1, half: 1 } as const;

describe('describeWater: couriers', () => {
  it('GIVEN a courier sent THEN the sender hears how it goes, the referee reads the message', () => {
    expect(say({ type: 'courierSent', audience: toArmy('sender'), data: { courierId: 'k1', to: 'friend', from: '0101', goes: 'horse' } })).toBe('Courier k1 rides from 0101 to Frida.');
    expect(say({ type: 'courierSent', audience: toArmy('sender'), data: { courierId: 'k1', to: 'friend', from: '0101', goes: 'foot' } })).toBe('Courier k1 sets out on foot from 0101 to Frida.');
    expect(say({ type: 'courierSent', audience: toArmy('sender'), data: { courierId: 'k1', to: 'friend', from: '2303', goes: 'fleet' } })).toBe('Courier k1 sails with the fleet from 2303 to Frida.');
    expect(say({ type: 'courierSent', audience: REFEREE, data: { courierId: 'k1', fromArmy: 'sender', toArmy: 'friend', from: '0101', message: 'Hold the ford.' } }))
      .toBe('Courier k1: The Host of Sigurd to The Host of Frida from 0101: "Hold the ford."');
  });

  it('GIVEN a courier delivered THEN the recipient reads it with the times sent and received', () => {
    expect(say({ type: 'courierDelivered', audience: toArmy('friend'), data: { courierId: 'k1', from: 'sender', at: '0401', sentAt: morning, receivedAt: afternoon, message: 'Hold the ford.' } }))
      .toBe('A courier from Sigurd reaches you at 0401 (sent Day 1, morning, received Day 1, afternoon): "Hold the ford."');
    expect(say({ type: 'courierDelivered', audience: REFEREE, data: { courierId: 'k1', toArmy: 'friend', hex: '0401' } })).toBe('Courier k1 delivered to The Host of Frida at 0401.');
  });

  it('GIVEN a courier captured THEN the captor reads the message, the referee learns how, the sender only that it is overdue', () => {
    expect(say({ type: 'courierCaptured', audience: toArmy('orc'), data: { courierId: 'k1', from: 'sender', to: 'friend', hex: '0201', sentAt: morning, message: 'Hold the ford.' } }))
      .toBe('Your men caught a courier of Sigurd riding to Frida at 0201 (sent Day 1, morning). The message reads: "Hold the ford."');
    expect(say({ type: 'courierCaptured', audience: REFEREE, data: { courierId: 'k1', fromArmy: 'sender', toArmy: 'friend', by: 'orc', hex: '0201', when: 'passing', roll: 3 } }))
      .toBe('Courier k1 (sender to friend) captured by The Orc Band at 0201 passing through (rolled 3).');
    expect(say({ type: 'courierCaptured', audience: REFEREE, data: { courierId: 'k1', fromArmy: 'sender', toArmy: 'friend', by: 'orc', hex: '0201', when: 'stopping', roll: 5 } }))
      .toBe('Courier k1 (sender to friend) captured by The Orc Band at 0201 stopping there (rolled 5).');
    const overdue = say({ type: 'courierOverdue', audience: toArmy('sender'), data: { courierId: 'k1', to: 'friend', sentAt: morning, dueBy: { day: 3, half: 1 } } });
    expect(overdue).toBe('Your courier k1 to Frida (sent Day 1, morning) has not arrived; it was due by Day 3, afternoon.');
    expect(overdue).not.toContain('Hold the ford');
  });

  it('GIVEN a courier with nobody to reach, no way, or an escape THEN each is told', () => {
    expect(say({ type: 'courierReturned', audience: toArmy('sender'), data: { courierId: 'k1', to: 'friend' } })).toBe('Your courier k1 found no one to deliver to: The Host of Frida is gone.');
    expect(say({ type: 'courierWaiting', audience: toArmy('sender'), data: { courierId: 'k1', to: 'friend', toHex: '0401', at: '0201' } })).toBe('Your courier k1 has no way to Frida at 0401 for now; it waits at 0201.');
    expect(say({ type: 'courierEscaped', audience: REFEREE, data: { courierId: 'k1', hex: '0201', roll: 4 } })).toBe('Courier k1 slipped through 0201 (rolled 4).');
  });
});

describe('describeWater: boarding and landing', () => {
  it('GIVEN an army embarking THEN the channel hears where, the commander what is aboard and what it costs', () => {
    expect(say({ type: 'armyEmbarked', audience: PUBLIC, data: { armyId: 'aeskrvald', hex: '2304', port: 'East Port' } })).toBe('Prince Aeskr embarks at East Port (2304).');
    expect(say({ type: 'armyEmbarked', audience: PUBLIC, data: { armyId: 'aeskrvald', hex: '3003' } })).toBe('Prince Aeskr embarks at 3003.');
    expect(say({ type: 'armyEmbarked', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', hex: '2304', vessels: { troopTransport: 9, galley: 1 }, aboard: [{ id: 'first', name: 'First', figures: 24 }], ashore: [{ id: 'second', name: 'Second', figures: 20 }], notes: [{ kind: 'tide' }] } }))
      .toBe('Aeskrvald embarked on 1 galley, 9 troop transports at 2304: First (24) aboard; Second stay ashore and follow by shuttle. the fleet waits six hours for the tide (one half period) before it can sail.');
    expect(say({ type: 'armyEmbarked', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', hex: '3003', vessels: { longship: 2 }, aboard: [], ashore: [], notes: [{ kind: 'embarkCost', points: 6 }] } }))
      .toBe('Aeskrvald embarked on 2 longships at 3003: no regiments aboard. embarking away from a port costs the army 6 points (half its daily points).');
  });

  it('GIVEN an army landing THEN the channel hears where, the commander the cost, the escort and the shuttle', () => {
    expect(say({ type: 'armyDebarked', audience: PUBLIC, data: { armyId: 'aeskrvald', hex: '1802', port: 'Skullhaven' } })).toBe('Prince Aeskr lands at Skullhaven (1802).');
    expect(say({ type: 'armyDebarked', audience: PUBLIC, data: { armyId: 'aeskrvald', hex: '2603' } })).toBe('Prince Aeskr lands at 2603.');
    expect(say({ type: 'armyDebarked', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', hex: '1802', notes: [] } })).toBe('Aeskrvald landed at 1802.');
    expect(say({ type: 'armyDebarked', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', hex: '1802', notes: [{ kind: 'debarkCost', points: 3 }, { kind: 'escortRejoins' }, { kind: 'awaiting', lastArrives: { day: 4, half: 2 } }] } }))
      .toBe('Aeskrvald landed at 1802. Debarking cost 3 points (advanced rule); the galley escort, lost to the open sea, rejoins here; the army does not march until its other regiments arrive by shuttle (last ones Day 4, evening).');
  });

  it('GIVEN shuttled regiments landing THEN the commander hears who and how many trips are left', () => {
    expect(say({ type: 'armyAssembled', audience: PUBLIC, data: { armyId: 'aeskrvald', port: '1802' } })).toBe("Prince Aeskr's army has assembled at 1802.");
    expect(say({ type: 'regimentsLanded', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', port: '1802', regiments: ['Second'], assembled: true } })).toBe('Second landed at 1802: the army is assembled and may march.');
    expect(say({ type: 'regimentsLanded', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', port: '1802', regiments: ['Second', 'Third'], assembled: false, tripsLeft: 2, lastArrives: { day: 6, half: 0 } } }))
      .toBe('Second, Third landed at 1802; still awaited: 2 more shuttle trip(s), the last Day 6, morning.');
  });
});

describe('describeWater: fleets', () => {
  const berths: [FleetBerth, string, string][] = [
    [{ kind: 'docked', hex: '2304', port: 'East Port', landPort: true }, 'docked in the port of East Port (2304)', 'land in the port or one hex off it with `/debark`'],
    [{ kind: 'docked', hex: '2303', port: 'East Port' }, 'in the port of East Port (2303)', 'land on a neighbouring land hex with `/debark`'],
    [{ kind: 'river', hex: '3409', river: 'Alder' }, 'drawn up on the bank of the Alder at 3409', 'land on either bank with `/debark hex:3409 bank:`'],
    [{ kind: 'beach', hex: '3003', whereEmbarked: true }, 'off the beach at 3003, where the army embarked', 'land at 3003 with `/debark hex:3003`'],
    [{ kind: 'beach', hex: '3003' }, 'off the beach at 3003', 'land at 3003 with `/debark hex:3003`'],
    [{ kind: 'channel', hex: '2403' }, 'at anchor in the channel at 2403', 'troop transports land only at a port (in a gale any ship on a coast hex may beach with `/debark`)'],
    [{ kind: 'beached', hex: '2603' }, 'drawn up on the shore at 2603', 'beach and land on a neighbouring land hex with `/debark`'],
    [{ kind: 'offshore', hex: '2603' }, 'at anchor offshore at 2603', 'land by rowboat on a neighbouring land hex with `/debark`'],
    [{ kind: 'openSea', hex: '2501' }, 'hove to in the open sea at 2501, out of sight of land', 'sail to a coast hex or a port first (`/sail to:`), then `/debark`'],
    [{ kind: 'atSea', hex: '2102' }, 'hove to at sea at 2102, in coastal waters', 'sail to a coast hex or a port first (`/sail to:`), then `/debark`'],
  ];
  it.each(berths)('GIVEN a fleet lying %o THEN it lies "%s" and the army may "%s"', (berth, where, landing) => {
    expect(berthWhere(berth)).toBe(where);
    expect(berthLanding(berth)).toBe(landing);
  });

  it('GIVEN a fleet stopped THEN the commander hears the voyage given up (and by whom) and where it lies', () => {
    const berth: FleetBerth = { kind: 'atSea', hex: '2102' };
    expect(say({ type: 'fleetStopped', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', hex: '2102', berth, cancelled: ['2002', '1902', '1802'], time: afternoon, byReferee: false } }))
      .toBe('Voyage to 1802 cancelled Day 1, afternoon: the fleet lies hove to at sea at 2102, in coastal waters.');
    expect(say({ type: 'fleetStopped', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', hex: '3003', berth: { kind: 'beach', hex: '3003', whereEmbarked: true }, cancelled: [], time: morning, byReferee: true } }))
      .toBe('Fleet stopped Day 1, morning (by the referee): it lies off the beach at 3003, where the army embarked.');
  });

  it('GIVEN a fleet sailing THEN the channel hears the course, the commander the half period and why it waits', () => {
    expect(say({ type: 'fleetSailed', audience: PUBLIC, data: { armyId: 'aeskrvald', from: '2304', to: '2102', path: ['2303', '2202', '2102'] } })).toBe("Prince Aeskr's fleet sailed from 2304 to 2102 (by 2303, 2202).");
    const outcome = (notes: FleetNote[], sailed = false, arrived = false) => say({ type: 'fleetOutcome', audience: toArmy('aeskrvald'), data: { armyId: 'aeskrvald', half: 'afternoon', hex: '2303', sailed, arrived, notes } });
    expect(outcome([], true)).toBe('Afternoon: the fleet sailed to 2303.');
    expect(outcome([], true, true)).toBe('Afternoon: the fleet sailed to 2303 and has arrived: land with /debark.');
    expect(outcome([{ kind: 'tide' }])).toBe('Afternoon: the fleet stays at 2303. Waiting for the tide (advanced embarkation).');
    expect(outcome([{ kind: 'night' }])).toBe('Afternoon: the fleet stays at 2303. Rowed vessels do not move at night.');
    expect(outcome([{ kind: 'calm' }])).toBe('Afternoon: the fleet stays at 2303. Becalmed: sailed vessels cannot move.');
    expect(outcome([{ kind: 'gale' }])).toBe('Afternoon: the fleet stays at 2303. Riding out a gale at anchor (a ship on a coast hex may beach with /debark).');
    expect(outcome([{ kind: 'portClosed', hex: '2303' }])).toBe('Afternoon: the fleet stays at 2303. The port at 2303 is closed to seagoing ships (fog or high winds); waiting.');
    expect(outcome([{ kind: 'occupied', hex: '2202', by: 'noerdenheim' }])).toBe('Afternoon: the fleet stays at 2303. 2202 is held by Jarl Hrafnkel; waiting (one commander per hex).');
    expect(outcome([{ kind: 'cancelled', violation: { code: 'sail.land', message: '2203 is land' } }])).toBe('Afternoon: the fleet stays at 2303. Order cancelled: 2203 is land.');
    expect(outcome([{ kind: 'escortLost' }], true)).toBe('Afternoon: the fleet sailed to 2303. The fleet is in open sea: the galley escort cannot follow and is lost for this voyage.');
  });

  it('GIVEN fleets in sight THEN the channel hears who and where (no fighting at sea), the referee what each fleet is', () => {
    expect(say({ type: 'fleetSighted', audience: PUBLIC, data: { armyIds: ['aeskrvald', 'noerdenheim'], hexes: ['2303', '2202'], otherAfloat: true } }))
      .toBe("Prince Aeskr's fleet at 2303 and Jarl Hrafnkel's fleet at 2202 are in sight of each other. There is no fighting at sea: the referee decides what happens.");
    expect(say({ type: 'fleetSighted', audience: PUBLIC, data: { armyIds: ['aeskrvald', 'orc'], hexes: ['2303', '2203'], otherAfloat: false } }))
      .toBe("Prince Aeskr's fleet at 2303 and Grish at 2203 are in sight of each other. There is no fighting at sea: the referee decides what happens.");
    expect(say({ type: 'fleetSighted', audience: REFEREE, data: { armyIds: ['aeskrvald', 'noerdenheim'], hexes: ['2303', '2202'], vessels: { troopTransport: 9, galley: 1 } } }))
      .toBe('Contact at sea: Aeskrvald (1 galley, 9 troop transports) at 2303 and Noerdenheim at 2202. Decide its outcome (e.g. with /army edit).');
  });
});
