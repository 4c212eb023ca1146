import type { GameTime } from '../../engine/clock/index.js';
import type { Audience, EngineEvent } from '../../engine/events/index.js';
import type { StoredEvent } from '../../db/eventRepo.js';
import { oneTelling, saidBefore } from '../deliveries/cards.js';

/*
 * The web page's chronicle: the log's lines a reader may read, each told once and dated by the
 * half period it happened in.
 *
 * The log stamps every event of a transaction with the clock after it (storeChange.ts), so a
 * tick's own lines, logged before its `clockAdvanced`, carried the next half period: "Afternoon:
 * Army of Hadewych marched 1122 -> 1222" read "Day 2, evening", and the two lines of one
 * standoff round ("still face each other", "Still nobody pressed") were half a period apart.
 * Here a line logged before a `clockAdvanced` of its own stamp is dated by that move's `from`
 * (a catch-up tick plays several half periods in one transaction: the nearest move after the
 * line counts), and every other line by its stamp.
 *
 * Told once, as the channel's and the commanders' cards tell it: a march's public line beside the
 * commander's own account of it is folded into the account (deliveries' `oneTelling`); a standoff
 * going on unchanged is said when it starts and when it changes (`saidBefore`, as the campaign
 * book); and a line sent alike to several audiences the reader reads (the referee reads both
 * commanders' copies of a contact's DM) is one line naming them all. The clock's own move ("The
 * clock moves on to Day 2, night.") is the date of the lines after it: told only for a half period
 * with no other line.
 */

/** One line as the page shows it: when it happened, and to whom (the audiences' labels, in the log's order). */
export interface ChronicleLine {
  readonly time: GameTime;
  readonly to: readonly string[];
  readonly text: string;
}

/** A stored audience as the engine writes it. */
function audienceOf(key: string): Audience {
  return key.startsWith('army:') ? { kind: 'army', armyId: key.slice('army:'.length) } : key === 'referee' ? { kind: 'referee' } : { kind: 'public' };
}

/** A time read from an event's data, if it holds one. */
function timeIn(value: unknown): GameTime | undefined {
  const t = value as Partial<GameTime> | null | undefined;
  return t && typeof t === 'object' && typeof t.day === 'number' && typeof t.half === 'number' ? { day: t.day, half: t.half as GameTime['half'] } : undefined;
}

/** When each event happened (same order): its stamp, or the half period a later clock move of the same stamp left. */
export function happenedAt(events: readonly StoredEvent[]): GameTime[] {
  const out: GameTime[] = new Array<GameTime>(events.length);
  // The `from` of the nearest clock move after the line, per stamp, walking back from the newest.
  const pending = new Map<string, GameTime>();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    const stamp = `${e.time.day}:${e.time.half}`;
    if (e.type === 'clockAdvanced') {
      const data = e.data as { from?: unknown; to?: unknown } | null;
      out[i] = timeIn(data?.to) ?? e.time;
      const from = timeIn(data?.from);
      if (from) pending.set(stamp, from);
      continue;
    }
    out[i] = pending.get(stamp) ?? e.time;
  }
  return out;
}

type Told = EngineEvent & { readonly stored: StoredEvent; readonly at: GameTime };

/**
 * The chronicle lines of `events` (the log's, in order, already only those the reader may read),
 * dated by when they happened and told once. `label` names an audience for the reader.
 */
export function chronicleLines(events: readonly StoredEvent[], label: (audience: string) => string): ChronicleLine[] {
  const at = happenedAt(events);
  // Groups: the lines of one transaction (one stamp, one write time) that happened in one half period.
  const groups: Told[][] = [];
  let key = '';
  events.forEach((e, i) => {
    if (saidBefore(e)) return;
    const when = at[i]!;
    const k = `${e.time.day}:${e.time.half}|${e.createdAt}|${when.day}:${when.half}`;
    const data = typeof e.data === 'object' && e.data !== null ? e.data as Readonly<Record<string, unknown>> : undefined;
    const told: Told = { type: e.type, audience: audienceOf(e.audience), text: e.text, ...(data ? { data } : {}), stored: e, at: when };
    if (k !== key || groups.length === 0) { groups.push([]); key = k; }
    groups.at(-1)!.push(told);
  });
  const lines: { time: GameTime; to: string[]; text: string; fact: string; clock: boolean }[] = [];
  for (const group of groups) {
    const first = lines.length;
    for (const e of oneTelling(group) as Told[]) {
      const to = label(e.stored.audience);
      // The same fact in the same words to several audiences in the same moment (each commander's
      // copy of a contact's DM, the referee's and the army's copy of a withdrawal): one line, to each of them.
      const fact = JSON.stringify([e.type, e.text, e.stored.data ?? null]);
      // (A line to the same audience again is a thing of its own: an order given twice.)
      const same = lines.slice(first).find((l) => l.fact === fact && !l.to.includes(to));
      if (same) { same.to.push(to); continue; }
      lines.push({ time: e.at, to: [to], text: e.text, fact, clock: e.type === 'clockAdvanced' });
    }
  }
  // "The clock moves on to Day 2, night." under the date "Day 2, night" says the date again: as the
  // channel's card (its title), it is told only for a half period with nothing else to tell.
  const told = new Set(lines.filter((l) => !l.clock).map((l) => `${l.time.day}:${l.time.half}`));
  return lines.filter((l) => !l.clock || !told.has(`${l.time.day}:${l.time.half}`)).map((l) => ({ time: l.time, to: l.to, text: l.text }));
}
