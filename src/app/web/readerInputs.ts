import { timeIndex } from '../../engine/clock/index.js';
import type { Army } from '../../engine/forces/index.js';
import { knownPositions } from '../../engine/knowledge/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { NOT_IN_BOOK } from '../book/campaignBook.js';
import { webMayReadLogged, webMayReadSecretsOf, type WebReader } from '../deliveries/webReads.js';
import type { App } from '../app.js';
import type { CampaignTx } from '../campaignTx.js';
import { readCampaign } from '../unitOfWork.js';
import { readerVersion } from './readerVersion.js';
import { webRole, webVersion, type WebSession } from './webAccess.js';
import type { PageRequest } from './webPage.js';

/*
 * What a person's page is made from, as far as they may see it (issue 28: a hidden change must
 * cost a reader's page nothing). The web server keeps a reader's page version and map version
 * under this key, and their open page's live updates compare it, instead of the campaign's raw
 * version (which moves on every change, hidden ones too): so a change out of the reader's sight
 * makes the server work out nothing new for them, and what it does for a reader is a function of
 * what that reader can see. It is worked out from the state as loaded (the state cache's copy)
 * and one index lookup, cheaply, on every check of an open page, changed or not.
 *
 * It holds everything the page's data and map read that the reader may see (a superset, never
 * anything hidden from them): the campaign's public fields; the reader's armies whole, with their
 * orders, plans, memories of others, contacts (their own estimates only) and couriers; their
 * side's armies and every army they see or last saw, by the fields a map token shows; and the
 * newest chronicle line they may read. tests/web/readerInputs.test.ts checks that it covers them:
 * any one value of the state changed, the page or its map moves only if the key does.
 */

/** Who an army is on a map: its name, its commander (the token's label) and its side; shown on every token of it, a past sighting's too. */
function identityOf(a: Army | undefined): unknown {
  return a ? [a.name, a.commander, a.side] : null;
}

/** What an army shows on a map besides where it stands: who it is, its flags, and whether it is gone. */
function flagsOf(a: Army | undefined): unknown {
  return a ? [identityOf(a), a.formation, a.status] : null;
}

/** The contacts an army takes part in, as its commander knows them (their own estimates, not the other side's). */
function contactsOf(state: CampaignState, armyIds: readonly string[]): unknown[] {
  return Object.values(state.contacts)
    .filter((c) => armyIds.some((id) => c.armyIds.includes(id) || c.data.estimates?.[id] !== undefined))
    .map((c) => [c.id, c.armyIds, c.hexes, c.openedAt, c.step, c.data.contactHour ?? null, armyIds.map((id) => c.data.estimates?.[id] ?? null)]);
}

/** The inputs of a commander's view (their own page, or the referee's "view as" one army). */
function commanderInputs(tx: CampaignTx, who: WebReader, armyIds: readonly string[], req: PageRequest): string {
  const s = tx.state;
  const sides = new Set(armyIds.flatMap((id) => (s.armies[id] ? [s.armies[id].side] : [])));
  const audiences = ['public', 'referee', ...Object.keys(s.armies).map((id) => `army:${id}`)].filter((a) => webMayReadLogged(tx, who, a));
  const newest = tx.read.chronicle(audiences, NOT_IN_BOOK, { last: 1 })[0]?.id ?? 0;
  const known = knownPositions(s, armyIds);
  return readerVersion(
    [req.day ?? null, s.name, s.season, s.clock, s.status, s.settings, s.weather, s.sides],
    armyIds.map((id) => [s.armies[id] ?? null, s.orders[id] ?? null, s.plans[id] ?? null, s.knowledge.armies[id] ?? null, webMayReadSecretsOf(tx, who, id)]),
    Object.values(s.armies).filter((a) => sides.has(a.side)).map((a) => [a.hex, flagsOf(a)]),
    // Another side's army where it was seen (its sighting) and who it is, with its flags when seen now (never where it stands now).
    Object.entries(known).map(([id, seen]) => [id, seen, identityOf(s.armies[id]), timeIndex(seen.at) === timeIndex(s.clock) ? flagsOf(s.armies[id]) : null]),
    contactsOf(s, armyIds),
    // The half periods played (the timeline's days, and which frame a past day shows), from the ticks' key: played or undone, never changed.
    tx.read.tickSpan(),
    // Closed contacts (their intel) and the estimates the map draws from them, read from their rows.
    armyIds.map((id) => [tx.read.closedContactIds(id), tx.read.closedEstimates(id)]),
    Object.values(s.couriers).filter((c) => armyIds.includes(c.fromArmy)),
    audiences,
    newest,
  );
}

/**
 * The inputs of the referee's own page (everything, and the inbox): the campaign's raw version
 * (the state's revision and the log's last event), and what moves without either: the newest
 * chronicle line not withdrawn by an undo, the messages the inbox lists (undelivered, not yet
 * read or dealt with) and the members' names it shows.
 */
function refereeInputs(tx: CampaignTx, userId: string, req: PageRequest, raw: string): string {
  const audiences = ['public', 'referee', ...Object.keys(tx.state.armies).map((id) => `army:${id}`)].filter((a) => webMayReadLogged(tx, { kind: 'person', userId }, a));
  return readerVersion(
    ['referee', req.day ?? null, raw],
    tx.read.chronicle(audiences, NOT_IN_BOOK, { last: 1 })[0]?.id ?? 0,
    tx.read.undelivered(),
    tx.members,
  );
}

/**
 * The key of what a session's view (page and map; `req`: which view and day) is made from, as
 * far as its reader may see it; undefined when the campaign is gone or the view is not theirs. The
 * referee sees everything: theirs is the campaign's raw version, with what their page reads besides (`refereeInputs`).
 */
export function readerInputs(app: App, session: WebSession, req: PageRequest): string | undefined {
  const raw = webVersion(app, session.campaignId);
  if (raw === undefined) return undefined;
  return readCampaign(app, { campaignId: session.campaignId }, (tx) => {
    const role = webRole(tx, session.userId);
    if (!role) return undefined;
    if (req.as !== undefined) {
      const allowed = role.referee ? tx.state.armies[req.as] !== undefined : role.armyIds.includes(req.as);
      return allowed ? commanderInputs(tx, { kind: 'viewAs', armyId: req.as }, [req.as], req) : undefined;
    }
    if (role.referee) return refereeInputs(tx, session.userId, req, raw);
    return commanderInputs(tx, { kind: 'person', userId: session.userId }, role.armyIds, req);
  });
}
