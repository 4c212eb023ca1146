import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.js';
import { sqlRows } from '../support/sql.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const CREATE = ['!now 2026-11-22T10:00Z', '@referee /campaign create scenario:valormr name:"Autumn War"'].join('\n');

/** The outbox rows of the DM-test notices: what the channel got and whom it pings. */
const testNotices = (x: Harness): { content: string; mentions: string | null }[] =>
  sqlRows(x.app.db, 'select content, mentions, data from outbox_messages where "to" = \'channel\' order by id')
    .filter((r) => r[2] !== null && (JSON.parse(r[2] as string) as { type?: string }).type === 'dmTestRefused')
    .map((r) => ({ content: r[0] as string, mentions: r[1] as string | null }));

describe('GIVEN DMs tested before they matter', () => {
  it('WHEN a player with open DMs is given an army and the campaign starts THEN each time they get a short DM saying their secrets come there', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /campaign assign army:hadewych user:alice', '@referee /campaign assign army:solon user:alice', '@referee /campaign assign army:aeskrvald user:bob');
    expect(h.dms('alice').filter((o) => o.content.includes('if you can read this, they will reach you'))).toHaveLength(2);
    await h.run('@referee /campaign start');
    // One start DM per commander, naming all their armies.
    const started = h.dms('alice').filter((o) => o.content.startsWith('The campaign **Autumn War** has started.'));
    expect(started).toHaveLength(1);
    expect(started[0]?.content).toContain('You command **Army of Hadewych** and **Army of Solon Theros**.');
    expect(h.dms('bob').filter((o) => o.content.startsWith('The campaign **Autumn War** has started.'))).toHaveLength(1);
    expect(testNotices(h)).toEqual([]);
  });

  it('WHEN a player\'s DMs are closed THEN at assign the channel names them and the referee at once, pings nobody, and the referee is told; the start tests again', async () => {
    h = await consoleHarness({ setup: CREATE, closedDms: ['bob'] });
    await h.run('@referee /campaign assign army:aeskrvald user:bob');
    const [atAssign] = testNotices(h);
    expect(atAssign?.content).toBe('DM test: I could not send a direct message to <@bob> (their DMs are closed). Referee <@referee>: their secrets will not reach them by DM. <@bob>: allow direct messages from this server\'s members (the server\'s Privacy settings) before the first secret of the campaign needs it; until then, `/intel` here shows you privately what I could not send.');
    expect(atAssign?.mentions).toBeNull();
    expect(h.dms('referee').filter((o) => o.content.includes('a DM to bob could not be delivered'))).toHaveLength(1);
    // Nothing secret is in the notice, and the kept DM is read with /intel.
    expect(atAssign?.content).not.toContain('Aeskrvald');
    expect((await h.run('@bob /intel army:aeskrvald'))[0]?.content).toContain('You command **Army of Aeskrvald**');
    // Started more than ten minutes later: tested again, told again.
    await h.run('!now 2026-11-22T11:00Z', '@referee /campaign start');
    expect(testNotices(h)).toHaveLength(2);
  });
});
