import type { Member } from '../db/memberRepo.js';
import { escapeName } from '../engine/events/index.js';
import type { CampaignTx } from './campaignTx.js';

/**
 * Each army's commanders and each commander's armies, in the members' order, worked out once per
 * member list: a transaction's list is read once and never changed, and a tick asks for every army
 * and every reader several times (plans, the routing of its events, each DM): a filter of the whole
 * list each time was armies x members.
 */
interface CommandIndex {
  readonly commanders: ReadonlyMap<string, readonly string[]>;
  readonly armies: ReadonlyMap<string, readonly string[]>;
  /** Each user's display name as their first row in the list gives it. */
  readonly names: ReadonlyMap<string, string>;
  /** The named co-referees (role 'referee'), in the members' order. */
  readonly referees: readonly string[];
}

const indexes = new WeakMap<readonly Member[], CommandIndex>();

function add(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function commandIndex(members: readonly Member[]): CommandIndex {
  let index = indexes.get(members);
  if (!index) {
    const commanders = new Map<string, string[]>();
    const armies = new Map<string, string[]>();
    const names = new Map<string, string>();
    const referees: string[] = [];
    for (const m of members) {
      if (!names.has(m.userId)) names.set(m.userId, m.displayName);
      if (m.role === 'referee') referees.push(m.userId);
      if (m.role !== 'commander') continue;
      add(commanders, m.armyId, m.userId);
      add(armies, m.userId, m.armyId);
    }
    index = { commanders, armies, names, referees };
    indexes.set(members, index);
  }
  return index;
}

/** Users who command an army (several users may share one; none means the referee reads it). */
export function commandersOf(tx: Pick<CampaignTx, 'members'>, armyId: string): string[] {
  return [...(commandIndex(tx.members).commanders.get(armyId) ?? [])];
}

/** Armies the actor commands. */
export function armiesOf(tx: Pick<CampaignTx, 'members'>, userId: string): string[] {
  return [...(commandIndex(tx.members).armies.get(userId) ?? [])];
}

/** The named co-referees of a member list (the owner is not among them: referees.ts's refereeIds adds it). */
export function coRefereesOf(members: readonly Member[]): readonly string[] {
  return commandIndex(members).referees;
}

/** The display name of a member (their first row's), or undefined when they are not a member. */
export function memberName(tx: Pick<CampaignTx, 'members'>, userId: string): string | undefined {
  return commandIndex(tx.members).names.get(userId);
}

/**
 * A member's display name as a message writes it: escaped (escapeName), so that a name a player
 * set to "**Dave** <@&1> _x_" reads as typed and turns into no formatting or mention; `otherwise`
 * (their user id unless said) when they have none. Every message naming a member by display name
 * takes it from here; the stored name (members, a seat's previous commanders) stays as typed.
 */
export function shownName(tx: Pick<CampaignTx, 'members'>, userId: string, otherwise = userId): string {
  return escapeName(memberName(tx, userId) || otherwise);
}
