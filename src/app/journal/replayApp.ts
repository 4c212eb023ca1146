import type { JournalDie, RecordedDice } from '../../engine/dice/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { STATE_VERSION, upgradeState } from '../../engine/campaign/index.js';
import { writeTransaction } from '../../db/client.js';
import { insertCampaign, loadState, saveState } from '../../db/campaignRepo.js';
import { assignCommander } from '../../db/memberRepo.js';
import type { ScenarioDoc } from '../../engine/scenario/index.js';
import type { App } from '../app.js';
import { createApp } from '../createApp.js';
import { ManualClock } from '../ports.js';
import type { ReplayFile } from './replayFile.js';

/** The replay's own app: a database in memory, a clock set to each entry's time, no scripted dice. */
export function replayApp(): App & { clock: ManualClock; close(): void } {
  const clock = new ManualClock(new Date(0));
  return { ...createApp({ databasePath: ':memory:', clock }), clock };
}

/** A state from the journal (a checkpoint, or after an entry) as the code reads it. */
export function asState(json: unknown): CampaignState {
  return upgradeState(json as object, STATE_VERSION);
}

/** The campaign at its journal's first checkpoint, with the members it had then (none at creation; the export's at a later start). */
export function startCampaign(app: App, file: ReplayFile, state: CampaignState, withMembers: boolean): void {
  const { meta } = file.head;
  writeTransaction(app.db, () => {
    insertCampaign(app.db, meta, state, file.head.scenario as ScenarioDoc, STATE_VERSION);
    if (withMembers) for (const m of file.head.members) assignCommander(app.db, meta.id, m.armyId, m.userId, m.displayName);
  });
}

/** The replayed campaign's state now. */
export function storedState(app: App, id: string): CampaignState {
  const s = loadState(app.db, id);
  if (!s) throw new Error('the replayed campaign has no state');
  return upgradeState(s.json, s.version);
}

/** Puts `next` as the replayed campaign's state (the seeds the original chose; a later checkpoint). */
export function putState(app: App, prev: CampaignState, next: CampaignState): void {
  writeTransaction(app.db, () => saveState(app.db, prev, next, app.clock.now().toISOString(), STATE_VERSION, true));
}

/** A die the replay drew that the original did not (or not of that purpose). */
class DiceMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiceMismatch';
  }
}

/** The dice an invocation drew, given back in order; what it asks for must be what the original drew. */
export function recordedDice(dice: readonly JournalDie[]): RecordedDice & { left(): number } {
  const queue = dice.filter((d) => d.source !== 'manual');
  let i = 0;
  return {
    take(purpose, sides) {
      const d = queue[i];
      if (!d) throw new DiceMismatch(`the replay rolled a d${sides} for ${purpose}, but the original rolled no more dice`);
      if (d.purpose !== purpose || d.sides !== sides) throw new DiceMismatch(`the replay rolled a d${sides} for ${purpose} where the original rolled a d${d.sides} for ${d.purpose}`);
      i += 1;
      return d;
    },
    left: () => queue.length - i,
  };
}
