import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/app/actor.js';
import { exportCampaignBook } from '../../src/app/book/exportBook.js';
import { campaignState, consoleHarness, type Harness } from './harness.js';

/*
 * Issue 23: switching `positions:` between public and fog once the campaign has started tells the
 * referee first what it will reveal and hide (nothing changes until it is confirmed: `positions:fog!`), and the
 * switch to public reveals nothing fog hid until then. @see docs/rulings.md (Fog of war)
 */

let h: Harness | undefined;
afterEach(() => h?.close());

const actor = (userId: string): Actor => ({ userId, userName: userId, guildId: 'console', channelId: 'console', roleIds: [] });
const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
  '@referee /campaign start',
].join('\n');

describe('switching positions mid-campaign', () => {
  it('GIVEN a running campaign WHEN the referee switches to fog THEN it is told what that does and nothing changes until confirmed', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [preview] = await h.run('@referee /campaign settings positions:fog');
    expect(preview?.to).toBe('ephemeral');
    expect(preview?.content).toMatch(/^Nothing was changed yet\.\n\*\*Switching positions to fog of war\*\*/);
    expect(preview?.content).toContain('positions:fog!');
    expect(campaignState(h).settings.positions).toBe('public');
    await h.run('@referee /campaign settings positions:fog!');
    expect(campaignState(h).settings.positions).toBe('fog');
  });

  it('GIVEN fog, and an army that marched unseen WHEN the referee switches to public THEN the answer counts the unseen armies, and the public book still shows nothing fog hid', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings positions:fog!', '@bob /move army:grallune to:1124', '!tick 4');
    const [preview] = await h.run('@referee /campaign settings positions:public');
    expect(preview?.content).toMatch(/Now \d+ arm(y stands|ies stand) where some other side does not see it/);
    expect(preview?.content).toContain('It reveals nothing that fog hid until now');
    expect(campaignState(h).settings.positions).toBe('fog');
    await h.run('@referee /campaign settings positions:public!');
    expect(campaignState(h).settings.positions).toBe('public');
    const [pub] = await exportCampaignBook(h.app, actor('carol'), { publicOnly: true });
    const md = strFromU8(unzipSync(pub!.files![0]!.data)['book.md']!);
    // The fog days' marches stay out of the public book: Grallune's march toward 1124 is nowhere in it.
    expect(md).not.toMatch(/Grallune[^\n]*11\d\d|11\d\d[^\n]*Grallune/);
  });

  it('GIVEN a campaign still in setup THEN positions switch at once (nothing has been hidden yet)', async () => {
    h = await consoleHarness({ setup: SETUP.split('\n').slice(0, 3).join('\n') });
    await h.run('@referee /campaign settings positions:fog');
    expect(campaignState(h).settings.positions).toBe('fog');
  });
});
