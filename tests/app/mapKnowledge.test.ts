import { afterEach, describe, expect, it } from 'vitest';
import { commanderKnowledge } from '../../src/app/map/knowledge.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { intelFor } from '../../src/engine/contact/index.js';
import { estimateFromContact } from '../../src/engine/views/index.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { script } from '../secrecy/campaignScript.js';
import { AUTOCOMPLETE } from '../secrecy/worlds.js';

/**
 * A commander's map shows the newest estimate of each enemy their armies met. It is read from the
 * closed contacts' estimates by index (contact_estimates) and the live contacts; it must be what
 * reading every contact record in order gives (the way it was read before the index), at every
 * step of a campaign with contacts, a battle, an undo and ships.
 */

let h: Harness | undefined;
afterEach(() => h?.close());

const actor = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] };

/** What the records give, read whole: each army's contacts in order, the last estimate of each target kept. */
function fromRecords(tx: Parameters<typeof commanderKnowledge>[0], armyIds: readonly string[]): unknown[] {
  const latest = new Map<string, unknown>();
  for (const armyId of armyIds) {
    for (const entry of intelFor([...tx.read.closedContacts(armyId), ...Object.values(tx.state.contacts)], armyId)) {
      for (const e of entry.estimates) if (!armyIds.includes(e.targetId)) latest.set(e.targetId, estimateFromContact(e));
    }
  }
  return [...latest.values()];
}

describe('a commander\'s map knowledge', () => {
  it('GIVEN the secrecy campaign played line by line WHEN each army\'s (and two armies\') knowledge is read THEN it is what the whole records give, and some estimate is shown', async () => {
    h = await consoleHarness({ seed: 11 });
    const { setup, play } = script('public', 'valormr');
    await h.run(...setup);
    let shown = 0;
    for (const line of play.filter((l) => l !== AUTOCOMPLETE)) {
      await h.run(line);
      readCampaign(h.app, { actor }, (tx) => {
        const armies = Object.keys(tx.state.armies);
        for (const ids of [...armies.map((a) => [a]), ['hadewych', 'grallune'], ['grallune', 'hadewych']]) {
          const knowledge = commanderKnowledge(tx, ids);
          expect(knowledge.estimates).toStrictEqual(fromRecords(tx, ids));
          shown += knowledge.estimates?.length ?? 0;
        }
      });
    }
    expect(shown).toBeGreaterThan(0);
  }, 600_000);
});
