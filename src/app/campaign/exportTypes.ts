import type { Member } from './exportFiles.js';

/*
 * Types the export's files share, in a file of their own so that none of exportChunks.ts,
 * exportContacts.ts and exportKeep.ts imports another back for them (tests/app/importCycles.test.ts).
 */

/** What takes each closed part (or run of closed contacts) in order, and whether it was kept (else built now, and kept). */
export type OnPart = (part: { readonly member: Member; readonly bytes: number }, kept: boolean) => Promise<void>;

/** What the background builder of export parts knows (exportKeep.ts), kept with the app's export folder (exportChunks.ts `keptFolder`). */
export interface KeepState {
  /** Campaigns changed since the builder last looked at them. */
  readonly dirty: Set<string>;
  /** By campaign: its closed parts when the builder last made them all kept (how many of the journal, and the log's last closed event). */
  readonly done: Map<string, { readonly journalParts: number; readonly tailAfter: number }>;
  /** Whether the builder looked at every campaign once (at its first run in this process). */
  swept: boolean;
  /** The builder's run going on, if one is. */
  running: Promise<unknown> | undefined;
}
