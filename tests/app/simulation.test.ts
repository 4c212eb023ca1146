import { afterEach, describe, expect, it } from 'vitest';
import { regimentFigures, type Army } from '../../src/engine/forces/army.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { classifyRoll } from '../../src/engine/dice/index.js';
import { allEvents } from '../../src/db/eventRepo.js';
import { campaignState, consoleHarness, type Harness } from '../scenarios/harness.js';
import { sqlNumber } from '../support/sql.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const ARMIES = ['aeskrvald', 'annemie', 'arbenshire', 'arkthark', 'eglidain', 'elding', 'elf-king', 'elf-queen', 'grallune', 'groennendr', 'grunnthraesir', 'gyrhawk', 'hadewych', 'heagh', 'kobolds', 'laugher', 'lanze', 'lizardmen', 'minke', 'noerdenheim', 'oberon', 'solon', 'throrgrmir'];

/**
 * Plays the real Valormr scenario for a number of half periods with orders drawn from a seeded
 * generator (marches towards the valley, the Keep and each other, some forced or unformed, with
 * every answer to contacts left to the deadlines), and returns what came out.
 */
async function play(seed: number, halves: number): Promise<{ h: Harness; state: CampaignState; start: CampaignState }> {
  const harness = await consoleHarness({ seed });
  const pick = new SeededDice(createRngState(seed));
  const targets = ['2218', '1418', '0916', '2416', '1716', '2010', '1223', '2820'];
  await harness.run('@referee /campaign create scenario:valormr name:Sim', '@referee /campaign start');
  const start = campaignState(harness);
  for (let k = 0; k < halves; k++) {
    for (const id of ARMIES) {
      if (pick.d6('order?') > 3) continue;
      const to = targets[pick.roll(targets.length, 'target') - 1];
      const extra = pick.d6('options') === 6 ? ' forced:true' : pick.d6('unformed') > 4 ? ' unformed:true' : '';
      await harness.run(`@referee /move army:${id} to:${to}${extra}`);
    }
    await harness.run('!tick');
    if (k % 4 === 3) {
      // Record every battle waiting for a result, so the clock can go on.
      const list = await harness.run('@referee /battle list');
      for (const m of (list[0]?.content ?? '').matchAll(/\b(c\d+)\b/g)) await harness.run(`@referee /battle result contact:${m[1]}`);
    }
  }
  return { h: harness, state: campaignState(harness), start };
}

describe('simulation: the Valormr scenario under many seeded orders', () => {
  it('keeps one commander per hex, no negative points or figures, and no numbers in public', async () => {
    const run = await play(13, 16);
    h = run.h;
    const armies = Object.values(run.state.armies) as Army[];
    const hexes = armies.filter((a) => !a.status.destroyed).map((a) => `${a.hex.q},${a.hex.r}`);
    expect(new Set(hexes).size).toBe(hexes.length);
    for (const a of armies) {
      expect(a.march.pointsLeft).toBeGreaterThanOrEqual(0);
      expect(a.march.savedPoints).toBeGreaterThanOrEqual(0);
      for (const r of a.regiments) {
        expect(regimentFigures(r)).toBeGreaterThanOrEqual(0);
        for (const c of r.companies) expect(c.figures).toBeGreaterThanOrEqual(0);
      }
    }
    expect(run.state.clock.day).toBeGreaterThanOrEqual(4);
    const moved = armies.filter((a) => {
      const was = run.start.armies[a.id]?.hex;
      return was !== undefined && (was.q !== a.hex.q || was.r !== a.hex.r);
    });
    expect(moved.length).toBeGreaterThan(5);
    // Contacts were made (closed ones have left the live state; their records stay in their table).
    expect(sqlNumber(h.app.db, 'select count(*) from contacts')).toBeGreaterThan(0); // so the secrecy check below means something
    // Secrecy: nothing public carries a figure count, a strength or an estimate.
    const publicText = h.outputs.filter((o) => o.to === 'channel' || o.to === 'reply').map((o) => o.content).join('\n');
    expect(publicText).not.toMatch(/\d+\s*(figures?|troops)\b/i);
    // Weather effects are public rules ("ships at sea at 50 % speed"); any other percentage in
    // public (an estimate's +-25 %, a loss rate) would be a leak.
    expect(publicText.replace(/(ships at sea|overland move points) at \d+(\.\d+)? %/gi, '')).not.toMatch(/\d+\s*%/);
    expect(publicText).not.toMatch(/estimate/i);
    // Every die the rules rolled is of a known kind (manual dice and /dice log read the kind).
    const purposes = [...new Set(allEvents(h.app.db, run.state.id).filter((e) => e.type === 'diceRolled').map((e) => (e.data as { purpose: string }).purpose))];
    expect(purposes.length).toBeGreaterThan(10);
    expect(purposes.filter((p) => classifyRoll(p, armies).kind === 'other')).toEqual([]);
  });

  it('is deterministic: the same seed and orders give the same campaign', async () => {
    const a = await play(5, 6);
    a.h.close();
    const b = await play(5, 6);
    h = b.h;
    const strip = (s: CampaignState) => ({ ...s, id: '' });
    expect(strip(b.state)).toEqual(strip(a.state));
  });
});
