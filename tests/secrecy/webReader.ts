import { createHash } from 'node:crypto';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import type { Harness } from '../scenarios/harness.js';

/*
 * The web page as one more reader of the differential secrecy test (issue 28): each commander's
 * page, and the spectators' (turned on, live), read through the web routes as a browser reads
 * them. Everything a request reveals is written down: the address asked (the campaign's id
 * masked), the status, the headers (sizes, caching, the content type), and the body (JSON as it
 * is, pictures as their SHA-256). Its live event stream is open from before the first line: the
 * open pages are checked once after every line of the script (not on a timer, so that which
 * changes a page is told of does not depend on timing), and the stream's bytes are compared too.
 * Two more things a reader could time or see are written down and so compared across the worlds:
 * - how often the server worked out the reader's page and map versions anew (`recomputed`), line
 *   by line: a hidden fact must not change how much work a reader's page costs;
 * - revalidations: each picture asked again with the ETag just served, and the first view with
 *   the ETag the page was served when it opened (before the script): the status (304, or 200 and
 *   the new bytes) must be the same in both worlds.
 */

/** A web page read in the differential test: a person's (by console user), or the spectators'. */
export interface WebPageReader {
  /** The reader whose knowledge the page must not exceed: a player's name, or `channel` for the spectators. */
  readonly standsFor: string;
  /** The person logged in; undefined: the spectator page. */
  readonly user?: string;
  /** The line of the script after which they log in (one given a seat during play); before the first line when absent. */
  readonly after?: string;
}

export const webPageOf = (user: string, after?: string): WebPageReader => ({ standsFor: user, user, ...(after !== undefined ? { after } : {}) });
export const SPECTATOR_PAGE: WebPageReader = { standsFor: 'channel' };
/** The name of a web page's transcript in a world's transcripts. */
export const webName = (standsFor: string): string => `${standsFor} (web)`;

/** Headers that say when, not what: the response's date, and the rate limit's window (a count of the test's own requests, against the clock). */
const NOT_CONTENT = new Set(['date', 'x-ratelimit-reset', 'x-ratelimit-remaining', 'retry-after']);

interface Pyramid { readonly minLevel: number; readonly maxLevel: number }

/** A page open in one world: its cookie (a person's), its address, and its live stream's bytes so far. */
interface OpenPage {
  readonly reader: WebPageReader;
  readonly base: string;
  readonly cookie: string | undefined;
  stream: Promise<string> | undefined;
  /** What logging in answered (a person's), and the stream's own answer. */
  readonly opened: string[];
  /** The ETag of the first view as served when the page opened (what a browser holds). */
  readonly held: ReadonlyMap<string, string>;
}

/** Who the server counts a page's recomputations for (src/web/routeContext.ts `Recomputed`): a person by user id, the spectators' page as `spectator`. */
const countedAs = (r: WebPageReader): string => r.user ?? 'spectator';

/** The web pages of one world, opened before its script plays. */
export interface WebPages {
  /** Logs in the pages whose person logs in after this line of the script (`WebPageReader.after`). */
  openAfter(line: string): Promise<void>;
  /** Runs every open page's check for a change (what a timer does in production): after each line. */
  checkOpenPages(): void;
  /** Reads everything each page serves, ends the streams and the server; each page's transcript. */
  finish(): Promise<Map<string, string[]>>;
  /** Ends the streams and the server (if `finish` did not: a failed script). */
  close(): Promise<void>;
}

const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };

/**
 * Starts the world's web server, turns the spectator page on (live: `spectators:0`) when it is
 * read, and logs each person in by their `/web` link; opens every page's event stream. Run before
 * the script's first line (the answers to `/web` carry a fresh link: they are nobody's transcript).
 */
export async function openWebPages(h: Harness, readers: readonly WebPageReader[]): Promise<WebPages> {
  const checks = new Set<() => void>();
  // Each recomputation, by reader, and `|` after each line's checks.
  const recomputed: string[] = [];
  const web: WebServer = await startWebServer(h.app, {
    port: 0,
    recomputed: (reader, what) => recomputed.push(`${reader}:${what}`),
    schedule: (check) => {
      checks.add(check);
      return () => checks.delete(check);
    },
  });
  const campaignId = readCampaign(h.app, { actor: REFEREE }, (tx) => tx.meta.id);
  if (readers.some((r) => r.user === undefined)) await h.run('@referee /campaign settings spectators:0');
  const pages: OpenPage[] = [];
  let closed = false;
  const close = async (): Promise<void> => {
    if (!closed) await web.close();
    closed = true;
  };
  try {
    for (const reader of readers) if (reader.after === undefined) pages.push(await openPage(h, web, campaignId, reader));
  } catch (err) {
    await close();
    throw err;
  }
  return {
    close,
    async openAfter(line) {
      for (const reader of readers) if (reader.after === line) pages.push(await openPage(h, web, campaignId, reader));
    },
    checkOpenPages: () => {
      for (const check of [...checks]) check();
      recomputed.push('|');
    },
    async finish() {
      const out = new Map<string, string[]>();
      const during = [...recomputed];
      for (const page of pages) {
        const who = countedAs(page.reader);
        const mine = during.filter((e) => e === '|' || e.startsWith(`${who}:`)).map((e) => (e === '|' ? '|' : e.slice(who.length + 1, who.length + 2))).join('');
        out.set(webName(page.reader.standsFor), [...await readPage(h, page, campaignId), `recomputed while played (p: page, m: map; | after each line): ${mine}`]);
      }
      await close();
      for (const page of pages) out.get(webName(page.reader.standsFor))?.push(`events: ${await page.stream}`);
      return out;
    },
  };
}

async function openPage(h: Harness, web: WebServer, campaignId: string, reader: WebPageReader): Promise<OpenPage> {
  const opened: string[] = [];
  let base = `${web.url}/s/${campaignId}`;
  let cookie: string | undefined;
  if (reader.user !== undefined) {
    const answer = (await h.run(`@${reader.user} /web`)).at(-1)?.data as { url?: string } | undefined;
    if (!answer?.url) throw new Error(`no /web link for ${reader.user}`);
    // The answer carries a fresh link (a random token): nobody's transcript, also when it comes during the script.
    const link = h.outputs.findLastIndex((o) => (o.data as { url?: string } | undefined)?.url === answer.url);
    if (link >= 0) h.outputs.splice(link, 1);
    const r = await fetch(answer.url, { redirect: 'manual' });
    const set = r.headers.get('set-cookie');
    if (r.status !== 303 || !set) throw new Error(`${reader.user}'s link refused: ${r.status}`);
    cookie = set.split(';')[0];
    base = `${web.url}${r.headers.get('location') ?? ''}`;
    opened.push(`login: ${r.status} to ${(r.headers.get('location') ?? '').split(campaignId).join('<campaign>')}`);
  }
  const held = new Map<string, string>();
  for (const path of ['/first.png']) {
    const r = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {} });
    await r.arrayBuffer();
    const tag = r.headers.get('etag');
    if (tag) held.set(path, tag);
  }
  const page: OpenPage = { reader, base, cookie, stream: undefined, opened, held };
  const res = await fetch(`${base}/events`, { headers: cookie ? { cookie } : {} });
  opened.push(`GET /events ${res.status} ${headersOf(res)}`);
  page.stream = drain(res);
  return page;
}

/** A response's headers as they reveal something (sorted; the date and the rate limit's clock left out). */
function headersOf(r: Response): string {
  return JSON.stringify([...r.headers].filter(([k]) => !NOT_CONTENT.has(k)).sort(([a], [b]) => a.localeCompare(b)));
}

/** The whole of a stream's body, read as it arrives (the stream ends when the server closes). */
async function drain(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

/** Everything one page serves, as its script asks for it, and what a curious reader might ask besides; one line per request. */
async function readPage(h: Harness, page: OpenPage, campaignId: string): Promise<string[]> {
  const lines = [...page.opened];
  const fetched = async (path: string, tag?: string): Promise<{ status: number; body: Buffer; etag: string | null }> => {
    const headers: Record<string, string> = { ...(page.cookie ? { cookie: page.cookie } : {}), ...(tag ? { 'if-none-match': tag } : {}) };
    const r = await fetch(`${page.base}${path}`, { headers, redirect: 'manual' });
    const body = Buffer.from(await r.arrayBuffer());
    const text = /json|text/.test(r.headers.get('content-type') ?? '') ? body.toString() : `sha256:${createHash('sha256').update(body).digest('hex')}`;
    lines.push(`GET ${path}${tag ? ' if-none-match' : ''} ${r.status} ${headersOf(r)} ${text}`.split(campaignId).join('<campaign>'));
    return { status: r.status, body, etag: r.headers.get('etag') };
  };
  /** A GET, and for a picture, the same asked again with the ETag just served (a browser revalidating: a 304). */
  const get = async (path: string): Promise<{ status: number; body: Buffer }> => {
    const r = await fetched(path);
    if (r.etag !== null && r.status === 200) await fetched(path, r.etag);
    return r;
  };
  /**
   * One view (now, or a past day) as page.js loads it: its data, the pyramid, tiles by the URLs it
   * builds, the whole picture. A past day's, only the tiles cut from the first (1,600 px) picture:
   * the same view as its whole picture, without drawing the 3,200 px one for every day.
   */
  const view = async (q: string): Promise<{ days: number[] }> => {
    const { status, body } = await get(`/page.json${q}`);
    if (status !== 200) return { days: [] };
    const data = JSON.parse(body.toString()) as { days: number[]; version: string; day: number | null };
    const pyramid = await get(`/map.json${q}`);
    if (pyramid.status !== 200) return data;
    const p = JSON.parse(pyramid.body.toString()) as Pyramid;
    const tq = data.day === null ? `?v=${encodeURIComponent(data.version)}` : q;
    // The smallest level, the first picture's, tiles past the edge and above the top; now, the full picture's too (two tiles), and the whole picture.
    const full = data.day === null ? [[p.maxLevel, 0, 0], [p.maxLevel, 2, 1]] as const : [];
    for (const [level, x, y] of [[p.minLevel, 0, 0], [p.maxLevel - 1, 1, 0], ...full, [p.maxLevel - 1, 99, 0], [p.maxLevel + 1, 0, 0]] as const) {
      await get(`/tile/${level}/${x}/${y}.png${tq}`);
    }
    if (data.day === null) {
      await get(`/map.png${q}`);
      await get('/first.png'); // the first view the page's HTML carries
    }
    return data;
  };
  await get('');
  // Revalidated with the ETags held since the page opened (before the script): 304 if unchanged, else the new picture.
  for (const [path, tag] of page.held) await fetched(path, tag);
  const now = await view('');
  for (const day of now.days) await view(`?day=${day}`);
  // Asking for what is not theirs: every army's view, days not played, a view that is no page.
  const armies = readCampaign(h.app, { actor: REFEREE }, (tx) => Object.keys(tx.state.armies).sort());
  for (const army of armies) await get(`/page.json?as=${army}`);
  for (const day of [0, Math.max(0, ...now.days) + 1, Math.max(0, ...now.days) + 2]) await get(`/map.json?day=${day}`);
  await get('/page.json?day=x');
  return lines;
}
