import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readerInputs } from '../../src/app/web/readerInputs.js';
import { webMapVersion, webPage } from '../../src/app/web/webPage.js';
import { inCampaign, readCampaign } from '../../src/app/unitOfWork.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { fogSetup } from './webHarness.js';

/*
 * Issue 28: the key a reader's page and map are kept under (src/app/web/readerInputs.ts: what the
 * reader may see of what they are made from) covers every input they read. Property: for any one
 * value changed anywhere in the campaign's state (fast-check picks the place among every leaf of
 * the stored state: armies, orders, plans, knowledge, contacts, couriers, clock, weather,
 * settings, dice...), if alice's page.json data or her map's version changes, her key changes
 * too. Otherwise the server would keep serving her the old page under an unchanged key. (The key
 * may move when the page does not: it may cover more than the page shows, never anything hidden.)
 * A changed value that makes the state unreadable (an enum no longer one) is no reader's page:
 * discarded; ids and references between records are not changed.
 */

type Path = readonly (string | number)[];

/** Every primitive leaf of a JSON value, by its path. */
function leaves(value: unknown, path: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
}

/** The state with the leaf at `path` changed: a number moved by `by`, a string lengthened, a boolean flipped, a null made 0. */
function changed(state: CampaignState, path: Path, by: number): CampaignState {
  const copy = structuredClone(state) as unknown as Record<string | number, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  const v = at[last];
  at[last] = typeof v === 'number' ? v + by : typeof v === 'string' ? `${v}${by}` : typeof v === 'boolean' ? !v : v === null ? by : v;
  return copy as unknown as CampaignState;
}

/** Where two texts first differ, with some context. */
const firstDiff = (a: string, b: string): string => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `…${a.slice(Math.max(0, i - 80), i + 80)}… became …${b.slice(Math.max(0, i - 80), i + 80)}…`;
};

let h: Harness;
let campaignId: string;
let original: CampaignState;
const session = () => ({ campaignId, userId: 'alice' });

/** What alice's page shows (its data and its map's version) and her key, or undefined when the state cannot be read as a page. */
function seen(): { key: string | undefined; shown: string } | undefined {
  try {
    return { key: readerInputs(h.app, session(), {}), shown: JSON.stringify([webPage(h.app, session(), {}), webMapVersion(h.app, session(), {})]) };
  } catch {
    return undefined;
  }
}

const write = (state: CampaignState) => inCampaign(h.app, { campaignId }, () => ({ state, result: undefined }));

beforeAll(async () => {
  // Fog: alice sees Aeskrvald beside her, not Bob's Grallune; two half periods played (orders, knowledge, sightings).
  h = await consoleHarness({ setup: fogSetup({ bobAt: '0510' }) });
  await h.run('@alice /move to:0916', '!tick', '@bob /move to:0512', '!tick');
  campaignId = readCampaign(h.app, { actor: { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] } }, (tx) => tx.meta.id);
  original = readCampaign(h.app, { campaignId }, (tx) => tx.state);
});
afterAll(() => h.close());

describe('a reader\'s key covers what their page reads', () => {
  it('GIVEN alice\'s page in fog WHEN any one value of the campaign\'s state changes THEN her key changes whenever her page data or her map changes', { timeout: 300_000 }, () => {
    const before = seen();
    if (!before) throw new Error('alice has no page');
    // Ids and references between records are no values to change (a record under another name, a reference to nothing).
    const paths = leaves(original).filter((p) => !p.some((k) => typeof k === 'string' && /^(id|\w+Ids?)$/.test(k)));
    expect(paths.length).toBeGreaterThan(200);
    const tally = { pageMoved: 0, keyOnly: 0, neither: 0 };
    fc.assert(fc.property(fc.constantFrom(...paths), fc.constantFrom(1, -1, 7), (path, by) => {
      try {
        write(changed(original, path, by));
      } catch {
        return fc.pre(false);
      }
      const after = seen();
      write(original);
      fc.pre(after !== undefined);
      if (after.shown !== before.shown) {
        tally.pageMoved += 1;
        expect(after.key, `changed ${path.join('.')} (${JSON.stringify(path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], original))}): her page moved, her key did not: ${firstDiff(before.shown, after.shown)}`).not.toBe(before.key);
      } else if (after.key !== before.key) {
        tally.keyOnly += 1;
      } else {
        tally.neither += 1;
      }
    }), { numRuns: 120 });
    // The property was exercised both ways: changes she sees, and changes hidden from her.
    expect(tally.pageMoved, JSON.stringify(tally)).toBeGreaterThan(3);
    expect(tally.neither, JSON.stringify(tally)).toBeGreaterThan(3);
    expect(seen()).toEqual(before);
  });
});
