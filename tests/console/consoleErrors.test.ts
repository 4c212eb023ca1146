/**
 * The console's failures are readable where the user is: a bug's reference is on stderr with its
 * cause, and an unreadable `file:` names the file and the folder it was looked for in.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { errorMessages } from '../../src/app/handleError.js';
import { consoleLogger } from '../../src/console/main.js';
import { ConsoleSession, type ConsoleOutput } from '../../src/console/session.js';
import { DatabaseFileGuard } from '../../src/databaseGuard.js';

const dir = mkdtempSync(join(tmpdir(), 'valormr-console-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('console errors', () => {
  it('GIVEN a bug WHEN the console answers "Something went wrong (ref ...)" THEN stderr has the same reference and the cause', () => {
    const lines: string[] = [];
    const [reply] = errorMessages(new Error('the disk is on fire'), consoleLogger((l) => void lines.push(l)), { command: 'boom' });
    const ref = /\(ref ([0-9a-f]{6})\)/.exec(reply!.content)![1];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^error: command failed \\(ref ${ref}\\): Error: the disk is on fire`));
  });

  it('GIVEN file: naming a missing file WHEN /campaign create THEN the refusal names the file and its folder, and says where paths start', async () => {
    const out: ConsoleOutput[] = [];
    const app = createApp({ databasePath: ':memory:', logger: consoleLogger(() => {}) });
    const session = new ConsoleSession(app, { where: { guildId: 'console', channelId: 'console', baseDir: dir }, outDir: dir, write: (o) => void out.push(o) });
    await session.handle('@referee /campaign create name:"Lost" file:scenarios/lost.json');
    expect(out[0]?.content).toContain(`I cannot read the file lost.json in the folder ${join(dir, 'scenarios')}: that folder does not exist`);
    await session.handle(`@referee /campaign create name:"Lost" file:.`);
    expect(out[1]?.content).toContain('it is a folder, not a file');
    app.close();
  });
});

describe('the database file guard', () => {
  it('GIVEN the open database file WHEN it is replaced by another file, or deleted THEN the guard says which, with the path', () => {
    const path = join(dir, 'guarded.db');
    writeFileSync(path, 'one');
    const guard = DatabaseFileGuard.watch(path)!;
    expect(guard.problem()).toBeUndefined();
    writeFileSync(join(dir, 'other.db'), 'two');
    renameSync(join(dir, 'other.db'), path);
    expect(guard.problem()).toBe(`The database file ${path} was replaced by another file while the bot was running`);
    rmSync(path);
    expect(guard.problem()).toBe(`The database file ${path} was deleted while the bot was running`);
    expect(DatabaseFileGuard.watch(':memory:')).toBeUndefined();
  });
});
