import { formatGameTime } from '../clock/index.js';
import { isFor, type Names, capital } from '../events/index.js';
import { describeVessels, kindsOf, VESSELS } from './vessels.js';
import type { CourierFact, FleetBerth, FleetFact, FleetNote, LandingNote, WaterFact } from './waterEvents.js';
import type { VesselCounts } from '../state/index.js';

/** Where a fleet lies, in words: "hove to at sea at 1802, in coastal waters". */
export function berthWhere(b: FleetBerth): string {
  switch (b.kind) {
    case 'docked':
      return b.landPort ? `docked in the port of ${b.port} (${b.hex})` : `in the port of ${b.port} (${b.hex})`;
    case 'river':
      return `drawn up on the bank of the ${b.river} at ${b.hex}`;
    case 'beach':
      return `off the beach at ${b.hex}${b.whereEmbarked ? ', where the army embarked' : ''}`;
    case 'channel':
      return `at anchor in the channel at ${b.hex}`;
    case 'beached':
      return `drawn up on the shore at ${b.hex}`;
    case 'offshore':
      return `at anchor offshore at ${b.hex}`;
    case 'openSea':
      return `hove to in the open sea at ${b.hex}, out of sight of land`;
    case 'atSea':
      return `hove to at sea at ${b.hex}, in coastal waters`;
  }
}

/** How the army may go ashore from where its fleet lies. */
export function berthLanding(b: FleetBerth): string {
  switch (b.kind) {
    case 'docked':
      return b.landPort ? 'land in the port or one hex off it with `/debark`' : 'land on a neighbouring land hex with `/debark`';
    case 'river':
      return `land on either bank with \`/debark hex:${b.hex} bank:\``;
    case 'beach':
      return `land at ${b.hex} with \`/debark hex:${b.hex}\``;
    case 'channel':
      return 'troop transports land only at a port (in a gale any ship on a coast hex may beach with `/debark`)';
    case 'beached':
      return 'beach and land on a neighbouring land hex with `/debark`';
    case 'offshore':
      return 'land by rowboat on a neighbouring land hex with `/debark`';
    case 'openSea':
    case 'atSea':
      return 'sail to a coast hex or a port first (`/sail to:`), then `/debark`';
  }
}

function landingNote(n: LandingNote): string {
  switch (n.kind) {
    case 'embarkCost':
      return `embarking away from a port costs the army ${n.points} points (half its daily points)`;
    case 'tide':
      return 'the fleet waits six hours for the tide (one half period) before it can sail';
    case 'debarkCost':
      return `debarking cost ${n.points} points (advanced rule)`;
    case 'escortRejoins':
      return 'the galley escort, lost to the open sea, rejoins here';
    case 'awaiting':
      return `the army does not march until its other regiments arrive by shuttle (last ones ${formatGameTime(n.lastArrives)})`;
  }
}

function fleetNote(n: FleetNote, names: Names): string {
  switch (n.kind) {
    case 'tide':
      return 'waiting for the tide (advanced embarkation)';
    case 'night':
      return 'rowed vessels do not move at night';
    case 'calm':
      return 'becalmed: sailed vessels cannot move';
    case 'gale':
      return 'riding out a gale at anchor (a ship on a coast hex may beach with /debark)';
    case 'portClosed':
      return `the port at ${n.hex} is closed to seagoing ships (fog or high winds); waiting`;
    case 'occupied':
      return `${n.hex} is held by ${names.commander(n.by)}; waiting (one commander per hex)`;
    case 'cancelled':
      return `order cancelled: ${n.violation.message}`;
    case 'escortLost':
      return 'the fleet is in open sea: the galley escort cannot follow and is lost for this voyage';
  }
}

/** "3 longships, 1 galley": the kinds of a fleet, for the referee. */
function fleetKinds(v: VesselCounts): string {
  return kindsOf(v).map((k) => `${v[k]} ${VESSELS[k].name}${v[k] === 1 ? '' : 's'}`).join(', ');
}

function describeCourier(f: CourierFact, names: Names): string {
  switch (f.type) {
    case 'courierSent':
      if (isFor(f, 'army')) return `Courier ${f.data.courierId} ${f.data.goes === 'fleet' ? 'sails with the fleet' : f.data.goes === 'horse' ? 'rides' : 'sets out on foot'} from ${f.data.from} to ${names.commander(f.data.to)}.`;
      return `Courier ${f.data.courierId}: ${names.army(f.data.fromArmy)} to ${names.army(f.data.toArmy)} from ${f.data.from}: "${f.data.message}"`;
    case 'courierDelivered':
      if (isFor(f, 'army')) return `A courier from ${names.commander(f.data.from)} reaches you at ${f.data.at} (sent ${formatGameTime(f.data.sentAt)}, received ${formatGameTime(f.data.receivedAt)}): "${f.data.message}"`;
      return `Courier ${f.data.courierId} delivered to ${names.army(f.data.toArmy)} at ${f.data.hex}.`;
    case 'courierCaptured':
      if (isFor(f, 'army')) return `Your men caught a courier of ${names.commander(f.data.from)} riding to ${names.commander(f.data.to)} at ${f.data.hex} (sent ${formatGameTime(f.data.sentAt)}). The message reads: "${f.data.message}"`;
      return `Courier ${f.data.courierId} (${f.data.fromArmy} to ${f.data.toArmy}) captured by ${names.army(f.data.by)} at ${f.data.hex} ${f.data.when === 'passing' ? 'passing through' : 'stopping there'} (rolled ${f.data.roll}).`;
    case 'courierOverdue':
      return `Your courier ${f.data.courierId} to ${names.commander(f.data.to)} (sent ${formatGameTime(f.data.sentAt)}) has not arrived; it was due by ${formatGameTime(f.data.dueBy)}.`;
    case 'courierReturned':
      return `Your courier ${f.data.courierId} found no one to deliver to: ${names.army(f.data.to)} is gone.`;
    case 'courierWaiting':
      return `Your courier ${f.data.courierId} has no way to ${names.commander(f.data.to)}${f.data.toHex === undefined ? '' : ` at ${f.data.toHex}`} for now; it waits at ${f.data.at}.`;
    case 'courierEscaped':
      return `Courier ${f.data.courierId} slipped through ${f.data.hex} (rolled ${f.data.roll}).`;
  }
}

function armyEmbarked(f: Extract<FleetFact, { type: 'armyEmbarked' }>, names: Names): string {
  if (isFor(f, 'public')) return `${names.commander(f.data.armyId)} embarks at ${f.data.port ?? f.data.hex}${f.data.port ? ` (${f.data.hex})` : ''}.`;
  const d = f.data;
  const aboard = d.aboard.map((r) => `${r.name} (${r.figures})`).join(', ') || 'no regiments';
  const ashore = d.ashore.length > 0 ? `; ${d.ashore.map((r) => r.name).join(', ')} stay ashore and follow by shuttle` : '';
  const notes = d.notes.length > 0 ? ` ${d.notes.map(landingNote).join('; ')}.` : '';
  return `${names.army(d.armyId)} embarked on ${describeVessels(d.vessels)} at ${d.hex}: ${aboard} aboard${ashore}.${notes}`;
}

function armyDebarked(f: Extract<FleetFact, { type: 'armyDebarked' }>, names: Names): string {
  if (isFor(f, 'public')) return `${names.commander(f.data.armyId)} lands at ${f.data.port ?? f.data.hex}${f.data.port ? ` (${f.data.hex})` : ''}.`;
  const notes = f.data.notes.length > 0 ? ` ${capital(f.data.notes.map(landingNote).join('; '))}.` : '';
  return `${names.army(f.data.armyId)} landed at ${f.data.hex}.${notes}`;
}

function fleetStopped(d: Extract<FleetFact, { type: 'fleetStopped' }>['data']): string {
  const by = d.byReferee ? ' (by the referee)' : '';
  const last = d.cancelled[d.cancelled.length - 1];
  return last !== undefined
    ? `Voyage to ${last} cancelled ${formatGameTime(d.time)}${by}: the fleet lies ${berthWhere(d.berth)}.`
    : `Fleet stopped ${formatGameTime(d.time)}${by}: it lies ${berthWhere(d.berth)}.`;
}

function regimentsLanded(f: Extract<FleetFact, { type: 'regimentsLanded' }>): string {
  const d = f.data;
  if (d.assembled) return `${d.regiments.join(', ')} landed at ${d.port}: the army is assembled and may march.`;
  return `${d.regiments.join(', ')} landed at ${d.port}; still awaited: ${d.tripsLeft} more shuttle trip(s), the last ${formatGameTime(d.lastArrives)}.`;
}

function fleetOutcome(d: Extract<FleetFact, { type: 'fleetOutcome' }>['data'], names: Names): string {
  const line = d.sailed ? `${capital(d.half)}: the fleet sailed to ${d.hex}${d.arrived ? ' and has arrived: land with /debark' : ''}.` : `${capital(d.half)}: the fleet stays at ${d.hex}.`;
  return `${line}${d.notes.length > 0 ? ` ${capital(d.notes.map((n) => fleetNote(n, names)).join('; '))}.` : ''}`;
}

function fleetSighted(f: Extract<FleetFact, { type: 'fleetSighted' }>, names: Names): string {
  const [a, b] = f.data.armyIds;
  const [ha, hb] = f.data.hexes;
  if (isFor(f, 'public')) {
    return `${names.commander(a)}'s fleet at ${ha} and ${names.commander(b)}${f.data.otherAfloat ? "'s fleet" : ''} at ${hb} are in sight of each other. There is no fighting at sea: the referee decides what happens.`;
  }
  return `Contact at sea: ${names.army(a)} (${fleetKinds(f.data.vessels)}) at ${ha} and ${names.army(b)} at ${hb}. Decide its outcome (e.g. with /army edit).`;
}

function describeFleet(f: FleetFact, names: Names): string {
  switch (f.type) {
    case 'armyEmbarked':
      return armyEmbarked(f, names);
    case 'armyDebarked':
      return armyDebarked(f, names);
    case 'fleetStopped':
      return fleetStopped(f.data);
    case 'armyAssembled':
      return `${names.commander(f.data.armyId)}'s army has assembled at ${f.data.port}.`;
    case 'regimentsLanded':
      return regimentsLanded(f);
    case 'fleetSailed':
      return `${names.commander(f.data.armyId)}'s fleet sailed from ${f.data.from} to ${f.data.to}${f.data.path.length > 1 ? ` (by ${f.data.path.slice(0, -1).join(', ')})` : ''}.`;
    case 'fleetOutcome':
      return fleetOutcome(f.data, names);
    case 'fleetSighted':
      return fleetSighted(f, names);
  }
}

/** The sentence of a waterborne or courier fact for its audience. */
export function describeWater(f: WaterFact, names: Names): string {
  switch (f.type) {
    case 'courierSent':
    case 'courierDelivered':
    case 'courierCaptured':
    case 'courierOverdue':
    case 'courierReturned':
    case 'courierWaiting':
    case 'courierEscaped':
      return describeCourier(f, names);
    default:
      return describeFleet(f, names);
  }
}
