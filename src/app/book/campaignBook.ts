import { escapeName } from '../../engine/events/index.js';
import { formatGameTime, fromIndex, HALF_PERIODS } from '../../engine/clock/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { MapView } from '../../engine/views/index.js';
import type { StoredEvent } from '../../db/eventRepo.js';
import type { PlayedTick } from '../../db/tickRepo.js';
import type { TickFrame } from '../campaignTx.js';
import { localTimes, scenarioPhrase } from '../format.js';

/** Whose campaign book: what everyone saw, everything (the referee's), or what some armies' commander knew. */
export type BookReader =
  | { readonly kind: 'public' }
  | { readonly kind: 'referee' }
  | { readonly kind: 'commander'; readonly armyIds: readonly string[] };

/** The log's audiences a reader's book holds. */
export function audiencesOf(reader: BookReader, state: CampaignState): string[] {
  if (reader.kind === 'public') return ['public'];
  if (reader.kind === 'commander') return ['public', ...reader.armyIds.map((id) => `army:${id}`)];
  return ['public', 'referee', ...Object.keys(state.armies).map((id) => `army:${id}`)];
}

/** What the book leaves out: the dice (the JSON export has every one), prompts and button chatter. */
export const NOT_IN_BOOK = ['diceRolled', 'diceSeedRevealed', 'diceSeedCommitted', 'diceEntered', 'contactPrompt'] as const;

/** One map of the book: a file name, the view to draw, and its title. */
export interface BookMap {
  readonly file: string;
  readonly view: MapView;
  readonly day: number;
}

export interface CampaignBook {
  readonly markdown: string;
  readonly maps: readonly BookMap[];
}

const HALF_TITLES = ['Morning', 'Afternoon', 'Evening', 'Night'] as const;

/** A frame as stored with a tick, if it is one. */
function frameOf(t: PlayedTick): TickFrame | undefined {
  const f = t.frame as Partial<TickFrame> | null;
  return f && typeof f === 'object' && f.view && typeof f.fog === 'boolean' ? { view: f.view, fog: f.fog } : undefined;
}

/** The map a reader may see after a tick: every army for the referee; in fog, none for anyone else. */
export function viewFor(frame: TickFrame, reader: BookReader): MapView {
  return frame.fog && reader.kind !== 'referee' ? { ...frame.view, tokens: [] } : frame.view;
}

/**
 * Discord's timestamp markup (`<t:unix:f>`, format.ts) as the book's reader reads it, outside
 * Discord: the time in the campaign's timezone; a relative time ("in 10 hours") says nothing in a
 * book read later, so `(<t:unix:R>)` beside an absolute one is left out, and every other one is
 * written as the full time.
 */
function plainTimes(text: string, timeZone: string): string {
  if (!text.includes('<t:')) return text;
  return localTimes(text.replace(/ ?\(<t:-?\d+:R>\)/g, '').replace(/<t:(-?\d+)(?::[tTdDfFR])?>/g, '<t:$1:f>'), new Date(0), timeZone);
}

/** One event as a line of the book, marked with whom it was for when that was not everyone. */
function line(e: StoredEvent, state: CampaignState, reader: BookReader): string {
  const text = plainTimes(e.text, state.settings.timezone).replace(/\n/g, '\n  ');
  if (e.audience === 'public') return `- ${text}`;
  if (e.audience === 'referee') return `- *(referee)* ${text}`;
  const armyId = e.audience.slice('army:'.length);
  const name = state.armies[armyId]?.name ?? armyId;
  return reader.kind === 'commander' && reader.armyIds.length === 1 ? `- *(to you)* ${text}` : `- *(to ${name})* ${text}`;
}

function heading(state: CampaignState, reader: BookReader, scenarioName: string): string[] {
  const whose = reader.kind === 'public' ? 'What everyone saw: the chronicle of the channel.'
    : reader.kind === 'referee' ? 'The referee\'s book: every secret is in it (estimates, dice results, what each commander was told). Do not share it while the campaign runs.'
      : `The book of ${reader.armyIds.map((id) => state.armies[id]?.name ?? id).join(', ')}: the chronicle and what ${reader.armyIds.length === 1 ? 'its' : 'their'} commander was told, nothing else.`;
  const sides = Object.values(state.sides).map((s) => {
    const armies = Object.values(state.armies).filter((a) => a.side === s.id).map((a) => `${a.name} (${a.commander})`);
    return `- **${s.name}**: ${armies.join(', ')}`;
  });
  return [`# ${escapeName(state.name)}`, '', `A campaign of ${scenarioPhrase(scenarioName)}, ${formatGameTime(state.clock)}${state.status === 'ended' ? ', ended' : ''}. ${whose}`, '', '## The sides', '', ...sides, ''];
}

/**
 * The campaign book as Markdown: days and half periods as sections, each with what happened in
 * plain words (the chronicle's own sentences: weather, marches, contacts, battles), the map at the
 * end of each day beside it, and for the referee or a commander what they were told in secret.
 * A half period's section holds its tick and the commands after it, until the next tick.
 */
export function campaignBook(input: { state: CampaignState; scenarioName: string; reader: BookReader; events: readonly StoredEvent[]; ticks: readonly PlayedTick[] }): CampaignBook {
  const { state, reader, events, ticks } = input;
  const out = heading(state, reader, input.scenarioName);
  const maps: BookMap[] = [];
  const first = ticks[0]?.lastEventId ?? Number.POSITIVE_INFINITY;
  const before = events.filter((e) => e.id <= first);
  if (before.length > 0) out.push('## Before the first tick', '', ...before.map((e) => line(e, state, reader)), '');
  let day = 0;
  ticks.forEach((t, i) => {
    const when = fromIndex(t.timeIndex);
    if (when.day !== day) {
      day = when.day;
      out.push(`## Day ${day}`, '');
      // The map at the end of the day: after its last tick played.
      const last = [...ticks.slice(i)].filter((x) => fromIndex(x.timeIndex).day === day).at(-1);
      const frame = last ? frameOf(last) : undefined;
      if (frame) {
        const file = `maps/day-${String(day).padStart(3, '0')}.webp`;
        maps.push({ file, view: viewFor(frame, reader), day });
        out.push(`![The map at the end of Day ${day}${frame.fog && reader.kind !== 'referee' ? ' (fog of war: no army shown)' : ''}](${file})`, '');
      }
    }
    const until = ticks[i + 1]?.lastEventId ?? Number.POSITIVE_INFINITY;
    const lines = events.filter((e) => e.id > t.lastEventId && e.id <= until).map((e) => line(e, state, reader));
    out.push(`### ${HALF_TITLES[when.half]}`, '', ...(lines.length > 0 ? lines : [`- Nothing stirred in the ${HALF_PERIODS[when.half]}.`]), '');
  });
  return { markdown: `${out.join('\n').trimEnd()}\n`, maps };
}
