import { escapeName } from '../../engine/events/index.js';
import type { Zippable } from 'fflate';
import { formatGameTime } from '../../engine/clock/index.js';
import type { MapView } from '../../engine/views/index.js';
import { describeSky } from '../../engine/weather/index.js';
import { renderMap, stillWebp } from '../../render/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { armiesOf } from '../members.js';
import { readCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';
import { audiencesOf, campaignBook, NOT_IN_BOOK, type BookReader } from './campaignBook.js';
import { saidBefore } from '../deliveries/cards.js';
import { fits, sizeText } from '../uploads.js';

/** Width of the book's maps: readable on a page, small enough that a season's book can be posted. */
const BOOK_MAP_WIDTH = 800;

/** Whose book the caller gets: the referee's (or the public one on request), or a commander's own when allowed. */
function readerOf(tx: CampaignTx, userId: string, publicOnly: boolean): BookReader {
  if (publicOnly) return { kind: 'public' };
  if (tx.isReferee) return { kind: 'referee' };
  const mine = armiesOf(tx, userId);
  if (mine.length === 0) throw new UserError('book.noArmy', 'You command no army here: `/campaign export format:markdown public:true` gives the public book.');
  if (tx.state.status !== 'ended' && !tx.state.settings.commanderBooks) {
    throw new UserError('book.notYet', 'Your own campaign book (with what you were told) comes after the campaign ends, or when the referee allows it (`/campaign settings commander-books:true`). `public:true` gives the public book now.');
  }
  return { kind: 'commander', armyIds: mine };
}

/** A file name made of the campaign's name. */
export function fileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-|-$/g, '').toLowerCase() || 'campaign';
}

/** The title a map of the campaign carries: the campaign, the time and the weather of its view. */
export function mapTitle(campaign: string, view: MapView): { campaign: string; time: string; weather: string } {
  return { campaign, time: formatGameTime(view.time), weather: describeSky(view.weather) };
}

/**
 * `/campaign export format:markdown`: the campaign book, a zip of `book.md` and the map at the end
 * of each day (WebP). The referee's book holds every secret; a commander's (after the campaign
 * ends, or when the referee allows) holds what that commander was told; `public:true` what the
 * channel saw. The text is read in one read transaction; the maps are drawn from the views kept
 * with each tick, on the render threads, after it. Larger than the reader may upload (`uploadLimit`,
 * Discord's limit for the server; undefined on the console: any size), the book comes without its
 * maps (book.md alone, said so); too large even so, the referee is told both sizes.
 */
export async function exportCampaignBook(app: App, actor: Actor, opts: { publicOnly: boolean; uploadLimit?: number }): Promise<Reply[]> {
  const job = readCampaign(app, { actor, orEnded: true }, (tx) => {
    const reader = readerOf(tx, actor.userId, opts.publicOnly);
    // The book tells a standoff as the channel did: when it starts and when it changes.
    const events = tx.read.chronicle(audiencesOf(reader, tx.state), NOT_IN_BOOK).filter((e) => !saidBefore(e));
    const book = campaignBook({ state: tx.state, scenarioName: tx.scenario.name, reader, events, ticks: tx.read.playedTicks() });
    return { book, reader, map: tx.map, mapKey: tx.mapKey, name: tx.state.name, days: tx.state.clock.day, now: tx.now };
  });
  // fflate is loaded by the first export, not at start.
  const { strToU8, zipSync } = await import('fflate');
  const files: Zippable = { 'book.md': strToU8(job.book.markdown) };
  const pictures = await Promise.all(job.book.maps.map(async (m) => {
    const png = await renderMap(job.map, m.view, { title: mapTitle(job.name, m.view), cacheKey: job.mapKey, width: BOOK_MAP_WIDTH, hexIds: 'none' });
    return [m.file, await stillWebp(png)] as const;
  }));
  // The pictures are compressed already: stored as they are.
  for (const [file, bytes] of pictures) files[file] = [new Uint8Array(bytes), { level: 0, mtime: job.now }];
  // Dated by the campaign's clock (not the machine's): the same book is the same bytes.
  const zip = zipSync(files, { level: 6, mtime: job.now });
  const which = job.reader.kind === 'public' ? 'public' : job.reader.kind === 'referee' ? 'referee' : 'commander';
  const whose = which === 'referee' ? 'the referee\'s, with every secret' : which === 'public' ? 'what everyone saw' : 'yours: what you were told';
  const name = `${fileStem(job.name)}-book-${which}.zip`;
  if (fits(zip.length, opts.uploadLimit)) {
    return [ephemeral(`The campaign book of **${escapeName(job.name)}** (${whose}): book.md and ${pictures.length} map(s), one per day.`,
      { format: 'markdown', reader: which, maps: pictures.length, file: name, bytes: zip.length }, [{ name, data: zip }])];
  }
  // The maps are most of the bytes (a WebP a day); the text alone is a few hundred kB for a season.
  const textOnly = zipSync({ 'book.md': files['book.md'] as Uint8Array }, { level: 6, mtime: job.now });
  const limit = sizeText(opts.uploadLimit ?? 0);
  if (fits(textOnly.length, opts.uploadLimit)) {
    return [ephemeral(`The campaign book of **${escapeName(job.name)}** (${whose}): book.md without its ${pictures.length} map(s): with them it is ${sizeText(zip.length)}, more than the ${limit} Discord lets the bot upload here (the maps of each day are in \`/campaign timelapse\`).`,
      { format: 'markdown', reader: which, maps: 0, mapsLeftOut: pictures.length, file: name, bytes: textOnly.length, tooLarge: { bytes: zip.length, limit: opts.uploadLimit } }, [{ name, data: textOnly }])];
  }
  return [ephemeral(`The campaign book of **${escapeName(job.name)}** is ${sizeText(zip.length)} (${sizeText(textOnly.length)} without its maps), more than the ${limit} Discord lets the bot upload here.`,
    { format: 'markdown', reader: which, tooLarge: { bytes: zip.length, textBytes: textOnly.length, limit: opts.uploadLimit } })];
}
