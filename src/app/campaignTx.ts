import type { EngineEvent } from '../engine/events/index.js';
import type { MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { MapView } from '../engine/views/index.js';
import type { SeededDice } from '../engine/dice/index.js';
import type { DiceSource } from './dice/diceSource.js';
import type { CampaignState, ContactRecord } from '../engine/state/index.js';
import type { CampaignControl, CampaignMeta } from '../db/campaignRepo.js';
import type { ClosedEstimate } from '../db/contactEstimateRepo.js';
import type { ChronicleWindow, StoredEvent } from '../db/eventRepo.js';
import type { JournalText } from '../db/journalRepo.js';
import type { Member } from '../db/memberRepo.js';
import type { NoticeRow } from '../db/noticeRepo.js';
import type { StoredRow } from '../db/packedText.js';
import type { OutboxRow, UndeliveredRow } from '../db/outboxRepo.js';
import type { PlayedTick, TickIndexRow, UndoableTick } from '../db/tickRepo.js';
import type { Actor } from './actor.js';
import type { Outgoing } from './deliveries/outgoing.js';
import type { Reply } from './messages.js';

/*
 * The shapes a use-case works with: what it reads inside its transaction (`CampaignTx`) and what
 * it returns (`Change`). Apart from unitOfWork.ts (which opens and writes the transaction) so that
 * the deliveries module can read a transaction without importing the unit of work.
 */

/** What a use-case may read besides the state, inside its transaction. Read-only. */
export interface CampaignReads {
  /** Logged events for these audiences ('public', 'referee', 'army:<id>'), newest last. */
  events(audiences: readonly string[], opts?: { types?: readonly string[]; limit?: number; afterId?: number }): StoredEvent[];
  /** The whole log as one JSON array, undone events included, and how many (export). */
  allEventsJson(): { json: string; count: number };
  /** Whether the half period with this time index was already played. */
  tickPlayed(timeIndex: number): boolean;
  /** The last played tick if it can still be undone, and how many in a row can. */
  lastUndoableTick(): UndoableTick | undefined;
  undoableTicks(): number;
  /** Undeliverable DMs to this user not yet read with /intel. */
  keptMessages(userId: string): OutboxRow[];
  /** Contacts that have left the live state (closed), with `armyId` those the army took part in. */
  closedContacts(armyId?: string): ContactRecord[];
  /** Every closed contact as one JSON array, from the stored text (the export). */
  closedContactsJson(): string;
  /** The closed contacts' ids and stored texts as UTF-8 bytes, in `closedContactsJson`'s order (the export keeps runs of them compressed). */
  closedContactBytes(): { id: string; data: Buffer }[];
  /** The ids of the closed contacts the army took part in (no record parsed). */
  closedContactIds(armyId: string): string[];
  /** The newest estimate of each force the army met in a closed contact, read by index (the map's knowledge). */
  closedEstimates(armyId: string): ClosedEstimate[];
  /** The outbox message, if it is still pending and claimed by `owner`. */
  claimedMessage(id: number, owner: string): OutboxRow | undefined;
  /** Messages not delivered and not yet dealt with (closed DMs not read with /intel, deliveries given up), oldest first. */
  undelivered(): UndeliveredRow[];
  /** The dice events of one dice period (rolls, commitment, reveal), undone ones included, in log order. */
  diceEvents(period: number): StoredEvent[];
  /** The last `limit` events of a type, newest last, undone ones included. */
  lastOfType(type: string, limit: number): StoredEvent[];
  /** Every played half period, in order (the book, the time-lapse). */
  playedTicks(): PlayedTick[];
  /** Every played half period, in order, without its frame (the web page's day index: no frame parsed). */
  tickIndex(): TickIndexRow[];
  /** How many half periods were played and the last one's index, from the ticks' key alone. */
  tickSpan(): { count: number; last: number | null };
  /** One played half period with its frame, if played. */
  playedTickAt(timeIndex: number): PlayedTick | undefined;
  /** Every event for these audiences not withdrawn by an undo, in order, leaving out some types (the book). */
  chronicle(audiences: readonly string[], without: readonly string[], window?: ChronicleWindow): StoredEvent[];
  /** The campaign's journal, in order (the export: what replays it, docs/replay.md). */
  journal(): JournalText[];
  /** The journal's rows `from` to `to` (inclusive), in order, and how many it has (the export reads it by parts). */
  journalBetween(from: number, to: number): JournalText[];
  journalLength(): number;
  /** The journal's rows numbered `seqs` (those it has), in order (the export checks its kept parts' last rows in one query). */
  journalAt(seqs: readonly number[]): (StoredRow<JournalText> & { readonly seq: number })[];
  /** The events with these ids (those it has), in order, as stored and as JSON text (the export checks its kept parts' last rows in one query). */
  eventsAt(ids: readonly number[]): (StoredRow<string> & { readonly id: number })[];
  /** How many events have an id after `afterId` and up to `upToId` (every one after when absent): counted on the index, only those. */
  eventCountBetween(afterId: number, upToId?: number): number;
  /** The id of the event `offset` places after event `afterId` (0: the next one), if the log holds that many. */
  eventIdAfter(afterId: number, offset: number): number | undefined;
  /** The events after event `afterId` (0: from the first), at most `limit`, each as its JSON text (the export). */
  eventsAfter(afterId: number, limit: number): { id: number; json: string }[];
  /** How many events the log holds up to event `upToId` (every one when absent). */
  eventCount(upToId?: number): number;
  /** The id of the log's event at place `index` (from 0), if it holds that many. */
  eventIdAt(index: number): number | undefined;
  /** The last event no undo can withdraw any more (undefined: none can be undone now). */
  finalEventsUpTo(): number | undefined;
  /** What people chose with `/notify` (no row: the defaults; read them through `noticesOf`, src/app/notices.ts). */
  notices(): NoticeRow[];
}

/** Where every army stood after a tick, and whether positions were public then. */
export interface TickFrame {
  readonly view: MapView;
  readonly fog: boolean;
}

/** Everything a use-case may read inside its transaction. */
export interface CampaignTx {
  readonly meta: CampaignMeta;
  readonly state: CampaignState;
  readonly scenario: ScenarioDoc;
  readonly map: MapModel;
  /** Identifies the map's picture in the render cache. */
  readonly mapKey: string;
  readonly members: readonly Member[];
  readonly actor: Actor | undefined;
  readonly isReferee: boolean;
  readonly dice: SeededDice;
  /** Where a new dice period's seeds come from (the app's dice source: random in production). */
  readonly seeds: Pick<DiceSource, 'newSeed' | 'newMaster'>;
  readonly now: Date;
  readonly read: CampaignReads;
}

/** A change to who plays what. */
export type MemberChange =
  | { readonly kind: 'assign'; readonly armyId: string; readonly userId: string; readonly displayName: string }
  | { readonly kind: 'unassign'; readonly armyId: string };

/**
 * What a use-case decided: everything it changes, written in its one transaction. The use-case
 * itself never writes; it returns this.
 */
export interface Change<R = readonly Reply[]> {
  readonly state?: CampaignState;
  readonly events?: readonly EngineEvent[];
  readonly outbox?: readonly Outgoing[];
  /** Scheduling and control columns to set (next tick, reminders, held tick, extensions...). */
  readonly control?: Partial<CampaignControl>;
  /** A half period was played: record it (idempotence) with the state before it (undo) and where every army stood after it (the book, the time-lapse). */
  readonly tick?: { readonly timeIndex: number; readonly before: CampaignState; readonly frame?: TickFrame };
  /** A played half period was taken back: its tick row goes, its events are marked undone. */
  readonly undo?: { readonly timeIndex: number; readonly lastEventId: number };
  readonly members?: readonly MemberChange[];
  /** People's `/notify` choices to store (each replaces that person's row). */
  readonly notices?: readonly NoticeRow[];
  /** Kept DMs now read with /intel (they may be pruned after the retention period). */
  readonly readMessages?: readonly number[];
  /** An outbox message that will not be delivered: kept for /intel (dmClosed) or the referee (failed). */
  readonly undeliverable?: { readonly id: number; readonly owner: string; readonly status: 'dmClosed' | 'failed'; readonly attempts: number; readonly reason: string };
  /** The campaign is deleted, with its log and outbox. */
  readonly deleted?: boolean;
  readonly result: R;
}
