import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.js';
import { sharedTestStore } from '../support/store.js';
import { testTempDir } from '../support/tempDirs.js';

const CREATE = '@referee /campaign create scenario:valormr name:"Autumn War"';
let h: Harness | undefined;
afterEach(() => h?.close());

describe('campaign lifecycle through the console', () => {
  it('GIVEN no campaign WHEN the referee creates one from valormr THEN every army is listed and the channel is told', async () => {
    h = await consoleHarness();
    const out = await h.run(CREATE);
    const reply = out.find((o) => o.to === 'reply');
    expect(reply?.content).toContain('Campaign **Autumn War** created');
    expect((reply?.data as { armies: string[] }).armies).toEqual(expect.arrayContaining(['hadewych', 'aeskrvald', 'elf-queen', 'oberon', 'anax']));
    expect(h.channel().some((o) => o.content.includes('A new campaign begins here'))).toBe(true);
  });

  it('GIVEN a campaign WHEN a second one is created in the same channel THEN it is refused', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run(CREATE);
    expect(h.last()).toMatchObject({ to: 'ephemeral', data: { error: 'campaign.exists' } });
  });

  it('assigns a commander, who then reads their own army privately; others are refused', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /campaign assign army:hadewych user:alice');
    expect(h.dms('alice').at(-1)?.content).toContain('You command **Army of Hadewych**');
    const [status] = await h.run('@alice /army status army:hadewych');
    expect(status).toMatchObject({ to: 'ephemeral', user: 'alice' });
    expect(status?.content).toMatch(/assault: .* figures \(100%\)/);
    const [refused] = await h.run('@bob /army status army:hadewych');
    expect(refused).toMatchObject({ to: 'ephemeral', data: { error: 'army.notYours' } });
    const [byName] = await h.run('@alice /army status army:"Hadewych the Arbiter"');
    expect((byName?.data as { armyId: string }).armyId).toBe('hadewych');
  });

  it('refuses referee actions to players, saying who may do them', async () => {
    h = await consoleHarness({ setup: CREATE });
    for (const line of ['@bob /campaign assign army:hadewych user:bob', '@bob /campaign start', '@bob /turn advance', '@bob /campaign export', '@bob /army edit army:hadewych hex:0101']) {
      const out = await h.run(line);
      expect(out.at(-1)).toMatchObject({ to: 'ephemeral', data: { error: 'campaign.refereeOnly' } });
      expect(out.at(-1)?.content).toMatch(/^Only the referee can/);
    }
  });

  it('shows status publicly without strengths, and the true figures only to the referee', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /campaign assign army:hadewych user:alice');
    const out = await h.run('@alice /campaign status');
    expect(out).toHaveLength(1);
    expect(out[0]?.to).toBe('reply');
    expect(out[0]?.content).toContain('Army of Hadewych (`hadewych`) at 0816: alice');
    // The armies nobody commands are one line per side.
    expect(out[0]?.content).toMatch(/\*\*Nobody commands \(9\)\*\*: Anax Archontas \(2614\), /);
    expect(out[0]?.content).not.toMatch(/figures/);
    const ref = await h.run('@referee /campaign status');
    expect(ref.find((o) => o.to === 'ephemeral')?.content).toMatch(/Army of Hadewych: \d+\n/);
  });

  it('exports the whole campaign as JSON for the referee', async () => {
    h = await consoleHarness({ setup: CREATE });
    const [out] = await h.run('@referee /campaign export');
    expect(out?.to).toBe('ephemeral');
    expect((out?.data as { format: string }).format).toBe('valormr-campaign-export');
    const doc = JSON.parse(readFileSync(out?.files?.[0] ?? '', 'utf8')) as { format: string; state: { armies: Record<string, unknown> }; events: unknown[] };
    expect(doc.format).toBe('valormr-campaign-export');
    expect(Object.keys(doc.state.armies)).toContain('noerdenheim');
    expect(doc.events.length).toBeGreaterThan(0);
    expect(out?.files?.[0]).toMatch(/autumn-war-export\.json$/);
  });

  it('survives a restart of the program: same database, same campaign', async () => {
    const databasePath = sharedTestStore(join(testTempDir('valormr-restart-'), 'campaign.db'));
    h = await consoleHarness({ databasePath, setup: CREATE });
    await h.run('@referee /campaign assign army:hadewych user:alice', '@referee /army edit army:hadewych hex:0817', '@referee /campaign start', '!tick');
    h.close();
    h = await consoleHarness({ databasePath });
    const [status] = await h.run('@alice /army status army:hadewych');
    expect((status?.data as { hex: string }).hex).toBe('0817');
    const [turn] = await h.run('@alice /turn status');
    expect(turn?.content).toContain('Day 1, afternoon');
  });

  it('refuses a broken uploaded scenario with every problem and its JSON path', async () => {
    const dir = testTempDir('valormr-scn-');
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ id: 'bad', name: 'Bad', map: { width: 3, height: 2, terrain: ['ccc', 'cxc'] }, sides: [{ id: 'a', name: 'A', colour: '#ff0000' }], armies: [] }));
    h = await consoleHarness();
    const [out] = await h.run(`@referee /campaign create name:Test file:${file}`);
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'scenario.invalid' } });
    const problems = (out?.data as { details: { problems: { path: string }[] } }).details.problems.map((p) => p.path);
    expect(problems).toEqual(expect.arrayContaining(['map.terrain[1]', 'sides', 'armies']));
    expect(out?.content).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });

  it('GIVEN a scenario file over 5 MB THEN it is refused unread, with the size accepted', async () => {
    const dir = testTempDir('valormr-scn-');
    const file = join(dir, 'huge.json');
    writeFileSync(file, `{"id":"huge","name":"${'x'.repeat(6 * 1024 * 1024)}"}`);
    h = await consoleHarness();
    const [out] = await h.run(`@referee /campaign create name:Test file:${file}`);
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'scenario.tooLarge' } });
    expect(out?.content).toContain('up to 5 MB');
  });

  it('GIVEN a 999 x 999 scenario map THEN it is refused with a short answer, and no campaign is made', async () => {
    const dir = testTempDir('valormr-scn-');
    const file = join(dir, 'wide.json');
    const row = 'c'.repeat(999);
    writeFileSync(file, JSON.stringify({ id: 'wide', name: 'Wide', map: { width: 999, height: 999, terrain: Array.from({ length: 999 }, () => row) },
      sides: [{ id: 'a', name: 'A', colour: '#ff0000', hostileTo: ['b'] }, { id: 'b', name: 'B', colour: '#0000ff' }],
      armies: [{ id: 'x', name: 'X', commander: 'X', side: 'a', hex: '001001', movementClass: 'infantry', sight: 'light', regiments: [{ id: 'r', name: 'R', companies: [{ troopType: 'foot', basic: 'infantry', figures: 5 }] }] }] }));
    h = await consoleHarness();
    const [out] = await h.run(`@referee /campaign create name:Test file:${file}`);
    expect(out).toMatchObject({ to: 'ephemeral', data: { error: 'scenario.invalid' } });
    expect(out?.content).toMatch(/at most 40000 hexes/);
    expect(out?.content.length).toBeLessThan(2000);
    expect((await h.run('@referee /campaign status'))[0]?.data).toMatchObject({ error: 'campaign.none' });
  });

  it('GIVEN a campaign played, undone and deleted THEN every console line carries data', async () => {
    h = await consoleHarness({ setup: CREATE, closedDms: ['alice'] });
    await h.run('@referee /campaign assign army:hadewych user:alice', '@referee /campaign start', '!tick', '@referee /turn undo',
      '@referee /campaign delete confirm:"Autumn War"');
    const without = h.outputs.filter((o) => o.data === undefined || o.data === null);
    expect(without.map((o) => `${o.to}: ${o.content.slice(0, 60)}`)).toEqual([]);
  });

  it('refuses bad console input with what is accepted', async () => {
    h = await consoleHarness({ setup: CREATE });
    expect((await h.run('@referee /nope'))[0]?.content).toContain('There is no /nope');
    expect((await h.run('@referee /campaign'))[0]?.content).toContain('needs a subcommand: create, settings');
    expect((await h.run('@referee /campaign status color:red'))[0]?.content).toContain('has no option "color"');
    expect((await h.run('@referee /campaign settings reminder-lead:abc'))[0]?.content).toContain('give a whole number');
    expect((await h.run('hello'))[0]?.content).toContain('A line starts with the user');
    expect((await h.run('@referee /army status army:nobody'))[0]?.content).toContain('There is no army "nobody"');
  });

  it('lets the referee delete the campaign only with its name', async () => {
    h = await consoleHarness({ setup: CREATE });
    expect((await h.run('@referee /campaign delete confirm:wrong'))[0]?.data).toMatchObject({ error: 'campaign.confirmDelete' });
    expect((await h.run('@referee /campaign delete confirm:"Autumn War"'))[0]?.content).toContain('was deleted');
    expect((await h.run('@referee /campaign status'))[0]?.data).toMatchObject({ error: 'campaign.none' });
  });
});
