import { isFog, sightedNow } from '../../engine/knowledge/index.js';
import type { CampaignSettings, CampaignState } from '../../engine/state/index.js';
import type { CampaignTx } from '../campaignTx.js';
import { armiesOf, commandersOf } from '../members.js';
import type { MessageButton } from '../messages.js';
import { refereeIds } from '../referees.js';
import type { Outgoing, OutgoingBase } from './outgoing.js';

/*
 * Who learns what: the one place that decides whether a reader may receive a message. Every
 * delivery (DM, channel post, picture) is made here with `deliver`, which asks `mayRead` for each
 * reader it would reach. @see docs/architecture.md (Deliveries: who learns what)
 */

/** Someone a delivery reaches: the campaign channel (everyone), a player (through the armies they command), or a referee. */
export type Reader =
  | { readonly kind: 'channel' }
  | { readonly kind: 'player'; readonly userId: string; readonly armyIds: readonly string[] }
  | { readonly kind: 'referee'; readonly userId: string };

/**
 * What a message tells, as far as secrecy goes:
 * - `open`: nothing secret (the time, the weather, the campaign's own business, a reply to its asker);
 * - `places`: where these armies are (public with positions public; in fog only to those who see them);
 * - `secretOf`: what these armies' commanders keep to themselves (figures, estimates, their dice and cards);
 * - `referee`: the referee's business.
 */
export type Subject =
  | { readonly kind: 'open' }
  | { readonly kind: 'places'; readonly armyIds: readonly string[] }
  | { readonly kind: 'secretOf'; readonly armyIds: readonly string[] }
  | { readonly kind: 'referee' };

export const OPEN: Subject = { kind: 'open' };
export const REFEREE_ONLY: Subject = { kind: 'referee' };
export const places = (armyIds: readonly string[]): Subject => ({ kind: 'places', armyIds });
export const secretOf = (armyIds: readonly string[]): Subject => ({ kind: 'secretOf', armyIds });

/** What the reader's armies know: whether they see an army now (their own side's armies always). */
export interface ReaderKnows {
  sees(armyId: string): boolean;
}

/** The channel knows only what is public. */
const KNOWS_NOTHING: ReaderKnows = { sees: () => false };

/**
 * Whether `reader` may receive a message about `subject`, from the campaign's settings and what
 * the reader's armies know. The one answer to "who learns what".
 */
export function mayRead(settings: Pick<CampaignSettings, 'positions'>, reader: Reader, knows: ReaderKnows, subject: Subject): boolean {
  if (reader.kind === 'referee' || subject.kind === 'open') return true;
  switch (subject.kind) {
    case 'referee':
      return false;
    case 'secretOf':
      return reader.kind === 'player' && subject.armyIds.some((id) => reader.armyIds.includes(id));
    case 'places':
      if (settings.positions !== 'fog') return true;
      return subject.armyIds.length > 0 && subject.armyIds.every((id) => knows.sees(id));
  }
}

/** What a reader's armies know in this state. */
export function readerKnows(state: CampaignState, reader: Reader): ReaderKnows {
  if (reader.kind !== 'player') return KNOWS_NOTHING;
  const own = reader.armyIds.flatMap((id) => (state.armies[id] ? [state.armies[id]] : []));
  const sides = new Set(own.map((a) => a.side));
  const seen = new Set(isFog(state) ? own.flatMap((a) => Object.keys(sightedNow(state, a.id))) : []);
  return { sees: (id) => reader.armyIds.includes(id) || sides.has(state.armies[id]?.side ?? '') || !isFog(state) || seen.has(id) };
}

/** The reader a user is in this campaign. */
export function readerOf(tx: AudienceTx, userId: string): Reader {
  if (refereeIds(tx.meta, tx.members).includes(userId)) return { kind: 'referee', userId };
  return { kind: 'player', userId, armyIds: armiesOf(tx, userId) };
}

export const CHANNEL: Reader = { kind: 'channel' };

/** What deciding an audience reads of a transaction (a campaign being created has only its owner). */
export type AudienceTx = Pick<CampaignTx, 'members' | 'state'> & { readonly meta: Pick<CampaignTx['meta'], 'ownerUserId'> };

/**
 * Where a delivery is addressed: the channel, the referees, one user, or an army's commanders
 * (`orReferees`: the referees read it when nobody commands the army).
 */
export type Destination =
  | 'channel'
  | 'referees'
  | { readonly user: string }
  | { readonly army: string; readonly orReferees?: boolean };

/** A message to deliver, before it is addressed. */
export type Message = OutgoingBase & { readonly buttons?: readonly MessageButton[] };

/** The users an address reaches (the channel aside). */
function usersAt(tx: AudienceTx, to: Exclude<Destination, 'channel'>): string[] {
  if (to === 'referees') return refereeIds(tx.meta, tx.members);
  if ('user' in to) return [to.user];
  const commanders = commandersOf(tx, to.army);
  return commanders.length > 0 || !to.orReferees ? commanders : refereeIds(tx.meta, tx.members);
}

/**
 * The one way to make a delivery: the message addressed to `to`, for each reader there that may
 * read `subject` (none when nobody may).
 */
export function deliver(tx: AudienceTx, to: Destination, subject: Subject, message: Message): Outgoing[] {
  const { buttons, ...base } = message;
  if (to === 'channel') return mayRead(tx.state.settings, CHANNEL, KNOWS_NOTHING, subject) ? [{ ...base, to: 'channel' }] : [];
  return usersAt(tx, to).flatMap((userId): Outgoing[] => {
    const reader = readerOf(tx, userId);
    if (!mayRead(tx.state.settings, reader, readerKnows(tx.state, reader), subject)) return [];
    return [{ ...base, to: 'dm', userId, ...(buttons && buttons.length > 0 ? { buttons } : {}) }];
  });
}

/** Whether the channel may hear of `subject` (fog of war keeps positions out of it). */
export function channelMayRead(settings: Pick<CampaignSettings, 'positions'>, subject: Subject): boolean {
  return mayRead(settings, CHANNEL, KNOWS_NOTHING, subject);
}

/** One message to several addresses, each reader reached once. */
export function deliverEach(tx: AudienceTx, tos: readonly Destination[], subject: Subject, message: Message): Outgoing[] {
  const seen = new Set<string>();
  return tos.flatMap((to) => deliver(tx, to, subject, message)).filter((o) => {
    const key = o.to === 'dm' ? `dm:${o.userId}` : 'channel';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
