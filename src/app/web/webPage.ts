import { formatGameTime, fromIndex, timeIndex } from '../../engine/clock/index.js';
import { describeEstimate, intelFor } from '../../engine/contact/index.js';
import type { MapView } from '../../engine/views/index.js';
import { commanderMapView } from '../../engine/views/index.js';
import { describeSky } from '../../engine/weather/index.js';
import { renderMap } from '../../render/index.js';
import { NOT_IN_BOOK, viewFor, type BookReader } from '../book/campaignBook.js';
import { webMayReadLogged, webMayReadSecretsOf, type WebReader } from '../deliveries/webReads.js';
import { statusCard } from '../army/armyStatus.js';
import { gameTimeLabel } from '../format.js';
import { commanderKnowledge } from '../map/knowledge.js';
import { cardBody, cardText, messageText } from '../messages.js';
import { refereeInbox } from '../referee/inbox.js';
import type { App } from '../app.js';
import { readCampaign } from '../unitOfWork.js';
import type { CampaignTx, TickFrame } from '../campaignTx.js';
import { chronicleLines } from './chronicleLines.js';
import { readerVersion } from './readerVersion.js';
import { webRole, type WebSession } from './webAccess.js';

/** What the page is asked for: whose view (the referee may view as any army), and which day (the latest when absent). */
export interface PageRequest {
  readonly as?: string | undefined;
  readonly day?: number | undefined;
}

/**
 * One line of the chronicle as the page shows it, dated by the half period it happened in, told
 * once (chronicleLines.ts); `to` names every audience it went to ("Army of Grallune, Army of
 * Hadewych" for the referee). No event id: the log numbers every event,
 * hidden ones too, so the gaps between a reader's lines' ids would count what they may not know.
 */
interface PageLine {
  readonly time: string;
  readonly day: number;
  readonly to: 'everyone' | 'you' | 'referee' | string;
  readonly text: string;
}

/** Everything the page shows besides the map picture; all of it is what the reader may know. */
export interface PageData {
  readonly campaign: { readonly name: string; readonly time: string; readonly status: string; readonly weather: string; readonly fog: boolean };
  readonly referee: boolean;
  /** Whose view: the reader's own armies, or the army the referee views as. */
  readonly viewing: { readonly as: string | null; readonly armies: readonly string[] };
  /** Armies the referee may view as (empty for a commander). */
  readonly viewAs: readonly { readonly id: string; readonly name: string }[];
  /** Days with a map (after their last tick), and the one shown (null: now). */
  readonly days: readonly number[];
  readonly day: number | null;
  readonly armies: readonly { readonly id: string; readonly text: string }[];
  readonly intel: readonly string[];
  readonly chronicle: readonly PageLine[];
  readonly inbox: string | null;
  /** The spectator page: how many half periods behind, and whether a half period is shown yet (null: a person's page). */
  readonly spectator: { readonly behind: number; readonly shown: boolean } | null;
}

/** Not a page this session may see (another campaign, an army not theirs, a day not played): the transport answers 404. */
export class NotForYou extends Error {}

/** How many chronicle lines the page carries (the newest). */
export const CHRONICLE_LINES = 300;

interface Reading {
  readonly referee: boolean;
  /** The book's reader (which frames it may draw) and the deliveries' reader (what it may read). */
  readonly reader: BookReader;
  readonly who: WebReader;
  readonly armyIds: readonly string[];
  readonly as: string | null;
}

function readingOf(tx: CampaignTx, session: WebSession, req: PageRequest): Reading {
  if (tx.meta.id !== session.campaignId) throw new NotForYou();
  const role = webRole(tx, session.userId);
  if (!role) throw new NotForYou();
  if (req.as !== undefined) {
    const allowed = role.referee ? tx.state.armies[req.as] !== undefined : role.armyIds.includes(req.as);
    if (!allowed) throw new NotForYou();
    return { referee: role.referee, reader: { kind: 'commander', armyIds: [req.as] }, who: { kind: 'viewAs', armyId: req.as }, armyIds: [req.as], as: req.as };
  }
  const who: WebReader = { kind: 'person', userId: session.userId };
  if (role.referee) return { referee: true, reader: { kind: 'referee' }, who, armyIds: Object.keys(tx.state.armies), as: null };
  return { referee: false, reader: { kind: 'commander', armyIds: role.armyIds }, who, armyIds: role.armyIds, as: null };
}

/**
 * The half period whose frame the timeline shows for each played day (its last tick with a kept
 * frame), from the ticks' index: no frame is read or parsed, however long the campaign.
 */
function dayTicks(tx: CampaignTx): Map<number, number> {
  const days = new Map<number, number>();
  for (const t of tx.read.tickIndex()) if (t.framed) days.set(fromIndex(t.timeIndex).day, t.timeIndex);
  return days;
}

/** The frame of one played day (the book's), read alone; undefined when none was kept. */
function dayFrame(tx: CampaignTx, day: number): TickFrame | undefined {
  const at = dayTicks(tx).get(day);
  const f = at === undefined ? undefined : tx.read.playedTickAt(at)?.frame as Partial<TickFrame> | null | undefined;
  return f && typeof f === 'object' && f.view && typeof f.fog === 'boolean' ? { view: f.view, fog: f.fog } : undefined;
}

/**
 * A past day's part of the log: up to the end of that day, its night's tick (logged on the
 * morrow's clock) included, and no later than the morrow's first tick, so that the newest lines
 * read are that day's (the few of the morrow before its first tick are left out by their date).
 */
function pastDay(tx: CampaignTx, day: number): { upToDay: number; upToId?: number } {
  const morrow = tx.read.tickIndex().find((t) => t.timeIndex >= timeIndex({ day: day + 1, half: 0 }));
  return { upToDay: day + 1, ...(morrow ? { upToId: morrow.lastEventId } : {}) };
}

function audienceLabel(audience: string, r: Reading, tx: CampaignTx): string {
  if (audience === 'public') return 'everyone';
  if (audience === 'referee') return 'referee';
  const armyId = audience.slice('army:'.length);
  return r.armyIds.length === 1 && (r.as !== null || !r.referee) ? 'you' : tx.state.armies[armyId]?.name ?? armyId;
}

/**
 * The campaign page's data for a web session: the campaign's name, time and weather, the reader's
 * armies (status and orders, as `/army status` tells them), their intel (every estimate received),
 * the chronicle with what they were told, the days the timeline can show, and for the referee the
 * inbox and the armies to view as. Read-only, in one read transaction.
 */
export function webPage(app: App, session: WebSession, req: PageRequest): PageData {
  const { data, inboxActor } = readCampaign(app, { campaignId: session.campaignId }, (tx) => {
    const r = readingOf(tx, session, req);
    // Days played to their end: the day in progress is "now".
    const days = [...dayTicks(tx).keys()].filter((d) => d < tx.state.clock.day);
    if (req.day !== undefined && !days.includes(req.day)) throw new NotForYou();
    const name = (id: string): string => tx.state.armies[id]?.name ?? id;
    const contacts = (armyId: string) => [...tx.read.closedContacts(armyId), ...Object.values(tx.state.contacts)];
    // Status, orders and intel: the armies whose secrets the reader may read (the referee's come by "view as").
    const own = r.reader.kind === 'commander' ? r.armyIds.filter((id) => webMayReadSecretsOf(tx, r.who, id)) : [];
    // The chronicle: every logged line the deliveries let this reader read.
    // (Asked of the database by audience, each audience passed through the deliveries' decision, and only the newest lines read.)
    const audiences = ['public', 'referee', ...Object.keys(tx.state.armies).map((id) => `army:${id}`)].filter((a) => webMayReadLogged(tx, r.who, a));
    const events = tx.read.chronicle(audiences, NOT_IN_BOOK, { last: CHRONICLE_LINES, ...(req.day !== undefined ? pastDay(tx, req.day) : {}) });
    const lines = chronicleLines(events, (a) => audienceLabel(a, r, tx))
      .filter((l) => req.day === undefined || l.time.day <= req.day)
      .map((l): PageLine => ({ time: formatGameTime(l.time), day: l.time.day, to: l.to.includes('everyone') ? 'everyone' : l.to.join(', '), text: l.text }));
    const data: PageData = {
      campaign: { name: tx.state.name, time: gameTimeLabel(tx.state), status: tx.state.status, weather: describeSky(tx.state.weather), fog: tx.state.settings.positions === 'fog' },
      referee: r.referee,
      viewing: { as: r.as, armies: r.armyIds.map(name) },
      viewAs: r.referee ? Object.values(tx.state.armies).map((a) => ({ id: a.id, name: a.name })) : [],
      days,
      day: req.day ?? null,
      armies: own.flatMap((id) => { const a = tx.state.armies[id]; return a ? [{ id, text: messageText({ content: '', cards: [statusCard(tx, a).card] }) }] : []; }),
      // "Day 1, morning — Army of Grallune: engaging regiment about ..." (dated as /intel dates it, by the contact); the
      // estimating army is named, in brackets after the date, only on a page that shows several.
      intel: own.flatMap((id) => intelFor(contacts(id), id).flatMap((entry) => entry.estimates.map((e) => `${formatGameTime(entry.openedAt)}${own.length > 1 ? ` (${name(id)})` : ''} — ${describeEstimate(e, name(e.targetId))}`))),
      chronicle: lines,
      inbox: null,
      spectator: null,
    };
    const inboxActor = r.referee && r.as === null ? { userId: session.userId, userName: '', guildId: tx.meta.guildId, channelId: tx.meta.channelId, roleIds: [] } : undefined;
    return { data, inboxActor };
  });
  if (!inboxActor) return data;
  const inbox = refereeInbox(app, inboxActor)[0];
  // Under the page's own "Referee inbox" heading and campaign name: the card without its title, and without the line naming the campaign.
  const card = inbox?.cards?.[0];
  return { ...data, inbox: inbox ? (card ? [cardBody(card), ...(inbox.cards ?? []).slice(1).map(cardText)].join('\n') : messageText(inbox)) : null };
}

/** Width of the page's map: twice Discord's, so a phone or a desktop can zoom until every hex id reads. */
export const WEB_MAP_WIDTH = 3200;

/** The layout of every picture of the page's map (1,600 px wide): each width is this one layout scaled. */
const WEB_LAYOUT_WIDTH = 1600;

/**
 * How the page's map is drawn `width` px wide: always the same layout, scaled (never a layout of
 * its own per width, whose title and legend would keep their pixel size and change the picture's
 * aspect), so every zoom level is the one picture at another size.
 */
export function webMapScale(width: number): { readonly width: number; readonly scale: number } {
  return { width: WEB_LAYOUT_WIDTH, scale: width / WEB_LAYOUT_WIDTH };
}

/**
 * The page's map as a PNG: now, the reader's own view (the same per-commander view and renderer
 * as `/map view:mine` and the DMs; every army for the referee); a past day, the book's frame of
 * that day as that reader may see it. Every hex id drawn, for zooming. `width`: the page's first
 * picture is drawn smaller (src/web/tiles.ts), the same view.
 */
export async function webMap(app: App, session: WebSession, req: PageRequest, width = WEB_MAP_WIDTH): Promise<Buffer> {
  const job = webMapJob(app, session, req);
  return renderMap(job.map, job.view, { title: job.title, cacheKey: job.mapKey, ...webMapScale(width), hexIds: 'all' });
}

/**
 * A hash of the page's map as the reader sees it (the view drawn, its title and the map), without
 * drawing it: the map's part of the reader's version, and the key its pictures are kept under.
 */
export function webMapVersion(app: App, session: WebSession, req: PageRequest): string {
  const job = webMapJob(app, session, req);
  return readerVersion(job.mapKey, job.view, job.title);
}

/** What the page's map draws: now, the reader's own view; a past day, the book's frame of that day as that reader may see it. */
function webMapJob(app: App, session: WebSession, req: PageRequest) {
  return readCampaign(app, { campaignId: session.campaignId }, (tx) => {
    const r = readingOf(tx, session, req);
    let view: MapView;
    if (req.day !== undefined) {
      const frame = req.day < tx.state.clock.day ? dayFrame(tx, req.day) : undefined;
      if (!frame) throw new NotForYou();
      view = viewFor(frame, r.reader);
    } else {
      view = commanderMapView(tx.state, r.armyIds, commanderKnowledge(tx, r.armyIds));
    }
    return { map: tx.map, mapKey: tx.mapKey, view, title: { campaign: tx.state.name, time: formatGameTime(view.time), weather: describeSky(view.weather) } };
  });
}
