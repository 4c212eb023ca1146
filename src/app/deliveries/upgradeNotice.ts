import { type EngineEvent, escapeName, REFEREE } from '../../engine/events/index.js';
import type { RestoredSpeed } from '../../engine/campaign/index.js';
import { deliver, REFEREE_ONLY, type AudienceTx } from './audience.js';
import type { Outgoing } from './outgoing.js';

/**
 * The referee's one notice that an upgrade gave regiments back the speeds an earlier save lost
 * (state version 9): which regiments, and the speed the campaign's scenario gives each. A log line
 * for the referee (their book) and a DM to the referees, written with the first save of the
 * upgraded state, so it is said once. What a regiment's speed is tells of a force's make-up:
 * referee only.
 */
export function speedsRestoredNotice(tx: AudienceTx, restored: readonly RestoredSpeed[]): { events: EngineEvent[]; outbox: Outgoing[] } {
  if (restored.length === 0) return { events: [], outbox: [] };
  const name = (id: string): string => tx.state.armies[id]?.name ?? id;
  const byArmy = new Map<string, string[]>();
  for (const r of restored) byArmy.set(r.armyId, [...(byArmy.get(r.armyId) ?? []), `${r.regimentId} ${r.speed}'`]);
  const list = [...byArmy].map(([armyId, regs]) => `${name(armyId)}: ${regs.join(', ')}`).join('; ');
  const text = `Regiment speeds restored from the campaign's scenario (an earlier version of the bot lost them when it saved, so these regiments marched at their class's rate since): ${list}.`;
  return {
    events: [{ type: 'regimentSpeedsRestored', audience: REFEREE, text, data: { restored } }],
    outbox: deliver(tx, 'referees', REFEREE_ONLY, { content: `**Referee** (${escapeName(tx.state.name)})\n${text}` }),
  };
}
