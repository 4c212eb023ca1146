import type { App } from '../../src/app/app.js';
import { inCampaign, readCampaign } from '../../src/app/unitOfWork.js';
import { getCampaignMeta } from '../../src/db/campaignRepo.js';
import { outboxByStatus } from '../../src/db/outboxRepo.js';
import type { CampaignState, Order } from '../../src/engine/state/index.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { sqlNumber, sqlRows } from '../support/sql.js';

/** Campaign created at 10:00Z on 2026-11-22, cadence 08:00 and 20:00 UTC (the default): first tick due 20:00Z. */
export const START = '2026-11-22T10:00:00Z';
export const FIRST_DUE = '2026-11-22T20:00:00.000Z';

export const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:aeskrvald user:bob',
].join('\n');

/** A console harness with the Valormr campaign created, two commanders, and (unless told) started. */
export async function scheduled(opts: { databasePath?: string; start?: boolean; settings?: string } = {}): Promise<Harness & { id: string }> {
  const h = await consoleHarness({ now: START, ...(opts.databasePath ? { databasePath: opts.databasePath } : {}), setup: SETUP });
  if (opts.settings) await h.run(`@referee /campaign settings ${opts.settings}`);
  if (opts.start ?? true) await h.run('@referee /campaign start');
  const id = campaignIds(h.app)[0];
  if (!id) throw new Error('no campaign');
  return Object.assign(h, { id });
}

export const meta = (app: App, id: string) => getCampaignMeta(app.db, id);
export const state = (app: App, id: string): CampaignState => readCampaign(app, { campaignId: id }, (tx) => tx.state);
/** Every campaign id, oldest first (test set-up; on SQLite those made at one instant in the order made). */
export const campaignIds = (app: App): string[] =>
  sqlRows(app.db, `select id from campaigns order by created_at, ${app.db.dialect === 'sqlite' ? 'rowid' : 'id'}`).map((r) => r[0] as string);
export const ticksPlayed = (app: App, id: string): number => sqlNumber(app.db, 'select count(*) from ticks where campaign_id = ?', id);

/** Messages queued (not yet delivered) for a user. */
export const pendingDms = (app: App, id: string, userId: string) =>
  outboxByStatus(app.db, id, ['pending']).filter((m) => m.to === 'dm' && m.userId === userId);

/** Changes the state directly through a use-case transaction (test set-up). */
export function edit(app: App, id: string, fn: (s: CampaignState) => CampaignState): void {
  inCampaign(app, { campaignId: id }, (tx) => ({ state: fn(tx.state), result: null }));
}

export function restOrder(armyId: string, s: CampaignState): Order {
  return { armyId, kind: 'rest', givenBy: 'alice', givenAt: s.clock };
}

export function withBattle(s: CampaignState): CampaignState {
  const hex = s.armies.hadewych?.hex ?? { q: 0, r: 0 };
  return {
    ...s,
    contacts: { ...s.contacts, b1: { id: 'b1', armyIds: ['hadewych', 'aeskrvald'], hexes: [hex], openedAt: s.clock, step: 'battle', data: {} } },
  };
}

export function withoutBattles(s: CampaignState): CampaignState {
  return { ...s, contacts: Object.fromEntries(Object.entries(s.contacts).filter(([, c]) => c.step !== 'battle')) };
}

/** A logger that keeps what was logged. */
export function capturingLogger() {
  const lines: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj: obj as Record<string, unknown>, ...(msg ? { msg } : {}) });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}
