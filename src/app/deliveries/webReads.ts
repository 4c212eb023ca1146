import type { MapView } from '../../engine/views/index.js';
import type { TickFrame } from '../campaignTx.js';
import { CHANNEL, channelMayRead, mayRead, OPEN, places, REFEREE_ONLY, readerKnows, readerOf, secretOf, type AudienceTx, type Reader, type Subject } from './audience.js';

/*
 * What the web page reads, decided by the same `mayRead` as every message: the page is one more
 * reader. A person's page reads as they do in their DMs (a referee everything, a commander what
 * their armies may know), the referee's "view as" reads as that army's commander, and the
 * spectator page reads as the channel. @see docs/web.md
 */

/** The reader a web page is for: a person of the campaign, the referee viewing as one army, or a spectator (the channel). */
export type WebReader = { readonly kind: 'person'; readonly userId: string } | { readonly kind: 'viewAs'; readonly armyId: string } | { readonly kind: 'spectator' };

/** The deliveries' reader behind a web reader. */
function readerFor(tx: AudienceTx, who: WebReader): Reader {
  if (who.kind === 'spectator') return CHANNEL;
  // Viewing as an army reads exactly what its commander reads (whoever that is, or nobody).
  if (who.kind === 'viewAs') return { kind: 'player', userId: '', armyIds: [who.armyId] };
  return readerOf(tx, who.userId);
}

/**
 * What a logged event tells: its audience as it was logged. The log's public part is already
 * fogged (`fogged` routed every public event that would place an army to those who saw it), an
 * army's part is that army's commander's, and anything else the referee's.
 */
function loggedSubject(audience: string): Subject {
  if (audience === 'public') return OPEN;
  if (audience.startsWith('army:')) return secretOf([audience.slice('army:'.length)]);
  return REFEREE_ONLY;
}

/** Whether the page's reader may read a logged event (a line of the chronicle) with this audience. */
export function webMayReadLogged(tx: AudienceTx, who: WebReader, audience: string): boolean {
  const reader = readerFor(tx, who);
  return mayRead(tx.state.settings, reader, readerKnows(tx.state, reader), loggedSubject(audience));
}

/** Whether the page's reader may read what an army's commander keeps to themselves (its status and orders, its intel). */
export function webMayReadSecretsOf(tx: AudienceTx, who: WebReader, armyId: string): boolean {
  const reader = readerFor(tx, who);
  return mayRead(tx.state.settings, reader, readerKnows(tx.state, reader), secretOf([armyId]));
}

/**
 * A played tick's map as the channel may see it: with positions public every army where it stood,
 * in fog of war none; never an order's path or a courier. What the spectator page draws.
 */
export function channelFrameView(frame: TickFrame): MapView {
  const settings = { positions: frame.fog ? 'fog' : 'public' } as const;
  // The frame's own setting: positions were public or fogged when it was played.
  return {
    ...frame.view,
    kind: 'public',
    tokens: frame.view.tokens.filter((t) => channelMayRead(settings, places([t.armyId]))),
    paths: [],
    couriers: [],
  };
}
