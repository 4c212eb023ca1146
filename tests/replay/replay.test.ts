import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { replayText, reportText } from '../../src/console/replay.js';
import { journalOf } from '../../src/db/journalRepo.js';
import { campaignState, consoleHarness, type Harness } from '../scenarios/harness.js';
import { exported } from './exported.js';
import { script } from '../secrecy/campaignScript.js';
import { AUTOCOMPLETE } from '../secrecy/worlds.js';
import { rawSqlite } from '../../src/db/client.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const PLAY = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:aeskrvald user:bob',
  '@referee /campaign start',
  '@alice /move army:hadewych to:0817',
  '!tick',
  '@bob /rest army:aeskrvald',
  '!tick',
  '!tick',
  '@referee /turn undo',
  '!tick',
];

describe('replay from the journal', () => {
  it('GIVEN a played campaign WHEN its export is replayed THEN it replays exactly', async () => {
    h = await consoleHarness({ seed: 7 });
    await h.run(...PLAY);
    const report = await replayText(await exported(h));
    expect(reportText(report)).toMatch(/^replays exactly/);
    expect(report).toMatchObject({ exact: true });
    expect(report.exact && report.invocations).toBeGreaterThanOrEqual(8);
  });
});

describe('replay: the export keeps the dice secrets (docs/dice.md)', () => {
  it('GIVEN a running campaign WHEN the referee exports it THEN the journal carries no seed still secret, yet replays exactly', async () => {
    h = await consoleHarness({ seed: 7 });
    await h.run(...PLAY);
    const { rng } = campaignState(h);
    const text = await exported(h);
    const secrets = [rng.seed, rng.next, rng.secret?.master ?? 'no master'];
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).toContain('(withheld until the campaign ends)');
    expect(reportText(await replayText(text))).toMatch(/^replays exactly/);
  });
});

describe('replay refuses what does not fit', () => {
  it('GIVEN one stored field altered by hand WHEN replayed THEN it fails loudly naming the field', async () => {
    h = await consoleHarness({ seed: 7 });
    await h.run(...PLAY);
    const changed = rawSqlite(h.app.db).prepare("update regiments set companies = json_set(companies, '$[0].figures', json_extract(companies, '$[0].figures') - 1) where army_id = 'hadewych' and ord = 0").run();
    // As another process's write would, the revision moves, so the app reads the rows again.
    rawSqlite(h.app.db).prepare('update campaigns set revision = revision + 1').run();
    expect(changed.changes).toBe(1);
    const report = await replayText(await exported(h));
    expect(report.exact).toBe(false);
    const text = reportText(report);
    expect(text).toMatch(/^DOES NOT REPLAY: .*the stored state is not what the journal replays to/);
    const was = Number(/the journal replays to (\d+)/.exec(text)?.[1]);
    expect(text).toContain(`field armies.hadewych.regiments[0].companies[0].figures: stored ${was - 1}, the journal replays to ${was}`);
  });

  it('GIVEN an export WHEN a journal line is edited, the file truncated, or it is of another version THEN it is refused naming the line, nothing replayed', async () => {
    h = await consoleHarness({ seed: 7 });
    await h.run(...PLAY);
    const text = await exported(h);
    const lines = text.split('\n');
    // An edited entry: a die's value changed.
    const at = lines.findIndex((l) => l.startsWith('{"seq"') && /"value":\d/.test(l));
    expect(at).toBeGreaterThan(0);
    const edited = [...lines];
    edited[at] = (lines[at] ?? '').replace(/"value":(\d)/, (_m, d: string) => `"value":${d === '1' ? 2 : 1}`);
    await expect(replayText(edited.join('\n'))).rejects.toThrow(new RegExp(`^line ${at + 1}: this entry is not the one exported`));
    // Truncated: the last lines cut off.
    await expect(replayText(lines.slice(0, -2).join('\n'))).rejects.toThrow(/truncated/);
    await expect(replayText(text.slice(0, text.length - 40))).rejects.toThrow(/^line \d+: /);
    // Another version: the export before replay.
    await expect(replayText(text.replace('"version":5', '"version":3'))).rejects.toThrow(/^line 1: an export of version 3; replay reads versions 4 and 5/);
    // The head edited (its state, here): named as line 1, by the digest the last line keeps of it.
    await expect(replayText(text.replace('"name":"Autumn War"', '"name":"Autumn Wars"'))).rejects.toThrow(/^line 1: the export's head is not the one exported/);
    // An entry left out.
    await expect(replayText([...lines.slice(0, 3), ...lines.slice(4)].join('\n'))).rejects.toThrow(/^line 4: /);
    // An event edited (the log follows the journal, an event a line): the chain the last line keeps does not follow.
    const event = lines.findIndex((l) => l.startsWith('{"id":') && l.includes('"text":"'));
    expect(event).toBeGreaterThan(lines.findIndex((l) => l.startsWith('],"count":')));
    const withEvent = [...lines];
    withEvent[event] = (lines[event] ?? '').replace('"text":"', '"text":"(edited) ');
    await expect(replayText(withEvent.join('\n'))).rejects.toThrow(new RegExp(`^line ${lines.length}: the export's last line does not match its \\d+ events: an event was edited`));
    // An event left out.
    await expect(replayText([...lines.slice(0, event), ...lines.slice(event + 1)].join('\n'))).rejects.toThrow(new RegExp(`^line ${lines.length - 1}: the events end after \\d+ of the \\d+ the export's head names`));
  });

  it('GIVEN an export written before the log was kept in closed parts (version 4, a file of that bot) WHEN replayed THEN it replays exactly; edited, it is refused', async () => {
    const text = gunzipSync(readFileSync(new URL('../fixtures/v4-export.json.gz', import.meta.url))).toString('utf8');
    expect(text.startsWith('{"format":"valormr-campaign-export","version":4,')).toBe(true);
    expect(reportText(await replayText(text))).toMatch(/^replays exactly: \d+ invocation/);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('{"seq"') && /"value":\d/.test(l));
    const edited = [...lines];
    edited[at] = (lines[at] ?? '').replace(/"value":(\d)/, (_m, d: string) => `"value":${d === '1' ? 2 : 1}`);
    await expect(replayText(edited.join('\n'))).rejects.toThrow(new RegExp(`^line ${at + 1}: this entry is not the one exported`));
    await expect(replayText(text.replace('"name":"Autumn War"', '"name":"Autumn Wars"'))).rejects.toThrow(/^line 1: the export's head is not the one exported/);
  });

  it('GIVEN an export WHEN entries are moved, its journal is of another state version, text follows its end, it is no export THEN each is refused naming the first line that does not fit', async () => {
    h = await consoleHarness({ seed: 7 });
    await h.run(...PLAY);
    const text = await exported(h);
    const lines = text.split('\n');
    // Two entries swapped: the first of them no longer follows from the lines before.
    const swapped = [...lines];
    [swapped[3], swapped[4]] = [lines[4] ?? '', lines[3] ?? ''];
    await expect(replayText(swapped.join('\n'))).rejects.toThrow(/^line 4: this entry is not the one exported/);
    // A journal written in another state version (an older or newer bot).
    await expect(replayText(text.replace(/"stateVersion":(\d+),"journalEntries"/, (_m, v: string) => `"stateVersion":${Number(v) + 1},"journalEntries"`))).rejects.toThrow(/^line 1: a journal of format 1 and state version \d+; this replay reads format 1, state version \d+/);
    // Text after the end.
    await expect(replayText(`${text}\n{"seq":99}`)).rejects.toThrow(new RegExp(`^line ${lines.length + 1}: text after the end of the export`));
    // Not an export at all.
    await expect(replayText('{"name":"Autumn War"}')).rejects.toThrow(/^line 1: not a campaign export/);
  });
});

describe('replay: the differential test\'s fog ACKS campaign (contacts, a battle, couriers, ships, undo)', () => {
  it('GIVEN the differential test\'s campaign in fog under ACKS WHEN its export is replayed THEN it replays exactly', async () => {
    const { setup, play } = script('fog', 'acks');
    h = await consoleHarness({ seed: 3 });
    // `!autocomplete` is the secrecy harness's own line (it reads, changes nothing).
    await h.run(...setup, ...play.filter((l) => l !== AUTOCOMPLETE));
    // What the campaign reached is in its journal (a refused command changes nothing and is no entry).
    const ran = journalOf(h.app.db, campaignState(h).id).flatMap((e) => {
      const input = e.input as { kind: string; command?: string; subcommand?: string | null } | null;
      return input?.kind === 'command' ? [`${input.command ?? ''}${input.subcommand ? ` ${input.subcommand}` : ''}`] : [];
    });
    expect(ran).toEqual(expect.arrayContaining(['engage', 'battle result', 'courier send', 'embark', 'sail', 'turn undo']));
    expect(reportText(await replayText(await exported(h)))).toMatch(/^replays exactly/);
  });
});
