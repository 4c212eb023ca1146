import { escapeName } from '../../engine/events/index.js';
import { campaignPulses, stateRevision, type CampaignPulse } from '../../db/campaignRepo.js';
import { writeTransaction } from '../../db/client.js';
import { lastEventId } from '../../db/eventRepo.js';
import { claimInteraction } from '../../db/interactionRepo.js';
import { campaignsOfUser } from '../../db/memberRepo.js';
import type { App } from '../app.js';
import type { Actor } from '../actor.js';
import { UserError } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { isReferee } from '../referees.js';
import { armiesOf } from '../members.js';
import { readCampaign } from '../unitOfWork.js';
import type { CampaignTx } from '../campaignTx.js';
import { newPass, signPass, verifyPass } from './webToken.js';

/** Who a web session is: a person in one campaign. */
export interface WebSession {
  readonly campaignId: string;
  readonly userId: string;
}

/** What a person is in a campaign: its referee, a commander of some armies, or nobody (no page). */
export function webRole(tx: CampaignTx, userId: string): { referee: boolean; armyIds: string[] } | undefined {
  const referee = isReferee(tx.meta, tx.members, tx.state.settings, { userId, roleIds: [] });
  const armyIds = armiesOf(tx, userId).filter((id) => tx.state.armies[id] !== undefined);
  return referee || armyIds.length > 0 ? { referee, armyIds } : undefined;
}

/**
 * `/web`: a private link that logs the caller into their campaign's web page: signed, short-lived
 * and good for one login. For the campaign's referee and its commanders; anyone else is told why not.
 */
export function webLink(app: App, actor: Actor): Reply[] {
  const web = app.web;
  if (!web) throw new UserError('web.off', 'The campaign web page is not running on this bot (it starts with `npm start`; a script console has none). Ask whoever runs the bot.');
  return readCampaign(app, { actor }, (tx) => {
    const role = webRole(tx, actor.userId);
    const spectators = spectatorsLine(web.publicUrl, tx);
    // Anyone may have the spectator page's public link, when the referee has turned it on.
    if (!role && spectators) return [ephemeral(spectators, { spectatorUrl: spectatorUrl(web.publicUrl, tx.meta.id) })];
    if (!role) throw new UserError('web.notInCampaign', `You are neither the referee nor a commander of **${escapeName(tx.state.name)}**, so it has no page for you. A referee can give you an army with \`/campaign assign\`.`);
    const token = signPass(web.secret, newPass(tx.meta.id, actor.userId, tx.now, web.linkTtlMs));
    const minutes = Math.round(web.linkTtlMs / 60_000);
    const url = `${web.publicUrl.replace(/\/$/, '')}/login/${token}`;
    return [ephemeral(`Your page of **${escapeName(tx.state.name)}**${role.referee ? ' (the referee\'s: everything, and "view as")' : ''}: ${url}\nThis link is yours alone: it logs in once, within ${minutes} minutes. Run \`/web\` again for a new one.${spectators ? `\n${spectators}` : ''}`, { url, expiresInMinutes: minutes })];
  });
}

/**
 * Marks a link used, in the database (so a restart, or a second process on it, keeps it used):
 * false when it was used already. A link's mark is a once-only claim beside the interactions'
 * (kept a day, long after the link has expired anyway).
 */
function spendLink(app: App, nonce: string): boolean {
  return writeTransaction(app.db, () => claimInteraction(app.db, `web-link:${nonce}`, app.clock.now().toISOString()));
}

/** The spectator page's public address. */
function spectatorUrl(publicUrl: string, campaignId: string): string {
  return `${publicUrl.replace(/\/$/, '')}/s/${encodeURIComponent(campaignId)}`;
}

/** The line telling where the spectator page is, when the referee has turned it on. */
function spectatorsLine(publicUrl: string, tx: CampaignTx): string | undefined {
  const delay = tx.state.settings.spectatorDelay;
  if (delay === undefined) return undefined;
  return `Spectators of **${escapeName(tx.state.name)}** (anyone with this link): ${spectatorUrl(publicUrl, tx.meta.id)}: the public map and chronicle, ${delay === 0 ? 'up to the latest half period' : `${delay} half period${delay === 1 ? '' : 's'} behind`}.`;
}

/**
 * A `/web` link presented to the web server: the session it opens, or undefined when the link is
 * forged, expired, already used, or its campaign or its person's place in it is gone. Using it
 * spends it.
 */
export function redeemWebLink(app: App, token: string): WebSession | undefined {
  const web = app.web;
  if (!web) return undefined;
  const now = app.clock.now();
  const pass = verifyPass(web.secret, token, now);
  if (!pass || !spendLink(app, pass.nonce)) return undefined;
  return stillInCampaign(app, { campaignId: pass.campaignId, userId: pass.userId }) ? { campaignId: pass.campaignId, userId: pass.userId } : undefined;
}

/** Whether the session's person still has a page in its campaign (it exists, and they referee it or command in it). */
export function stillInCampaign(app: App, session: WebSession): boolean {
  if (webVersion(app, session.campaignId) === undefined) return false;
  return readCampaign(app, { campaignId: session.campaignId }, (tx) => webRole(tx, session.userId) !== undefined);
}

/**
 * A fingerprint of everything a campaign's page shows (its stored state's revision, bumped by
 * every save, undo included, and its log's last event), read from two index lookups without
 * loading the state; undefined when the campaign is gone. The server's own: it moves on hidden
 * changes too, so it keys caches and wakes the page's live updates, and is never sent to a reader.
 * (It once counted the log's undone events: a scan of the whole log, 40 ms a request on a campaign
 * of 400 half periods, paid several times by every tile.)
 */
export function webVersion(app: App, campaignId: string): string | undefined {
  const revision = stateRevision(app.db, campaignId);
  return revision === undefined ? undefined : `${revision}|${lastEventId(app.db, campaignId)}`;
}

/**
 * The pulse of several campaigns (their stored revision, and a fingerprint that moves with the
 * revision, the log and the referee's inbox), gone ones left out, in one statement whatever their
 * number: how the web server learns of changes committed by other processes (src/web/campaignWatch.ts).
 */
export function campaignsPulse(app: App, campaignIds: readonly string[]): Map<string, CampaignPulse> {
  return campaignPulses(app.db, campaignIds);
}

/** The campaigns in which a person (e.g. logged in with Discord) has a page: they referee it or command in it. */
export function webCampaignsOf(app: App, userId: string): { id: string; name: string }[] {
  return campaignsOfUser(app.db, userId).filter((c) => stillInCampaign(app, { campaignId: c.id, userId }));
}
