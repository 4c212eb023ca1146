/**
 * `npm start` as an operator and a supervisor meet it: it runs the compiled JavaScript with node
 * directly (npm's only child is node, so a signal to npm reaches the bot), the console answers
 * quickly without a token, and with a token SIGTERM to npm (what many supervisors send) stops the
 * bot cleanly within 2 s. The compiled entry point is also what the systemd unit's ExecStart runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { commandPayloads } from '../../src/discord/registration.js';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { botEnv, isAlive, killAll, ROOT, sleep, startProcess } from './botProcess.js';
import { sharedBuild } from '../support/sharedBuild.js';

const dir = mkdtempSync(join(tmpdir(), 'valormr-start-'));
let fake: FakeDiscord;

beforeAll(async () => {
  // The prestart step: builds dist/ when the sources are newer than the last build (or takes the
  // run's build of the same sources: tests/support/sharedBuild.ts).
  sharedBuild(ROOT, () => {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  });
  expect(existsSync(join(ROOT, 'dist', 'src', 'main.js'))).toBe(true);
  fake = await FakeDiscord.start({ users: Object.values(PEOPLE) });
  fake.setCommands(commandPayloads(commands));
}, 300_000);

afterAll(async () => {
  await killAll();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The child processes of `pid`, with their command lines. */
function childrenOf(pid: number): { pid: number; cmd: string }[] {
  const out = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return out ? out.split('\n').map((p) => ({ pid: Number(p), cmd: readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim() })) : [];
}

/** `npm start` with this environment (npm from the PATH, as an operator or a supervisor runs it). */
function spawnNpmStart(env: Record<string, string>): { pid: number; exited: Promise<{ code: number | null; at: number }>; output: () => string } {
  let out = '';
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: botEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((res) => child.once('exit', (code) => res({ code, at: Date.now() })));
  return { pid: child.pid!, exited, output: () => out };
}

describe('npm start and the compiled entry point', () => {
  it('GIVEN no DISCORD_TOKEN WHEN node dist/src/main.js starts THEN the console answers its first line (compiled JavaScript, no tsx) and serves the web page on loopback', async () => {
    // How fast is a bench figure (startupMs, `npm start` to the first answer); here: that it answers.
    const p = startProcess(['dist/src/main.js'], botEnv({ DATABASE_PATH: join(dir, 'console.db') }));
    p.child.stdin.write('@referee /help\n');
    await p.waitForLine((l) => l.startsWith('{"to":"ephemeral"'), 120_000, 'the first answer');
    // The web page came up on loopback, on the free port the tests ask for (WEB_PORT=0), and answers.
    const line = await p.waitForLine((l) => l.startsWith('Campaign web page: http://127.0.0.1:'), 120_000, 'the web page');
    const url = /Campaign web page: (http:\/\/127\.0\.0\.1:(\d+))/.exec(line);
    expect(url?.[2]).not.toBe('8787');
    expect((await fetch(`${url![1]}/`)).status).toBe(200);
    p.child.stdin.end();
    expect((await p.exited).code).toBe(0);
  }, 300_000);

  it('GIVEN no DISCORD_TOKEN, no .env and WEB=off WHEN the compiled console answers its first line THEN it loaded none of the packages that line does not need', async () => {
    // What a start loads is most of its time: Discord, pictures, the web page, cron walks and .env
    // files wait for the first use. NODE_DEBUG=module names every CommonJS file loaded (all of these
    // packages are CommonJS, or load some).
    const cwd = mkdtempSync(join(dir, 'no-env-'));
    const env = botEnv({ DATABASE_PATH: join(cwd, 'lean.db'), WEB: 'off', NODE_DEBUG: 'module' });
    delete env.DOTENV_CONFIG_PATH;
    const p = startProcess([join(ROOT, 'dist', 'src', 'main.js')], env, cwd);
    p.child.stdin.write('@referee /help\n');
    await p.waitForLine((l) => l.startsWith('{"to":"ephemeral"'), 120_000, 'the first answer');
    const loaded = p.stderr.filter((l) => / load "/.test(l)).map((l) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(l)?.[1]).filter((name) => name !== undefined);
    // The database it opened is among them: the list is the one node gives.
    expect(loaded).toContain('better-sqlite3');
    expect(loaded.filter((name) => ['discord.js', '@discordjs/ws', 'sharp', '@napi-rs/canvas', 'fastify', 'cron-parser', 'luxon', 'dotenv', 'pino'].includes(name))).toEqual([]);
    p.child.stdin.end();
    expect((await p.exited).code).toBe(0);
  }, 300_000);

  it('GIVEN the compiled console WHEN a tick moves an army THEN its map is drawn on the compiled (bundled) render thread and written as a PNG', async () => {
    const p = startProcess(['dist/src/main.js'], botEnv({ DATABASE_PATH: join(dir, 'picture.db') }));
    for (const l of ['@referee /campaign create scenario:valormr name:Pictured', '@referee /campaign start', '@referee /move army:hadewych to:1114 unformed:true', '!tick']) p.child.stdin.write(`${l}\n`);
    const line = await p.waitForLine((l) => l.startsWith('{') && l.includes('"files":['), 240_000, 'the map of the tick');
    const file = (JSON.parse(line) as { files: string[] }).files.find((f) => f.endsWith('.png'));
    expect(file, line).toBeDefined();
    expect(readFileSync(file!).subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    p.child.stdin.end();
    expect((await p.exited).code).toBe(0);
    // The thread's bundle leaves out the engine it does not use: the campaign state's settings pull
    // in all of zod, which a picture never runs (scripts/bundle.mjs: the engine has no side effects).
    const out = join(ROOT, 'dist', 'src');
    const bundled = [join(out, 'render', 'renderWorker.js'), ...readdirSync(out).filter((f) => /^chunk-.*\.js$/.test(f)).map((f) => join(out, f))];
    expect(bundled.filter((f) => readFileSync(f, 'utf8').includes('ZodObject'))).toEqual([]);
    // The pool draws in its own thread when no render thread starts: the compiled thread itself answers.
    const thread = new Worker(join(ROOT, 'dist', 'src', 'render', 'renderWorker.js'), { workerData: {} });
    try {
      const reply = await new Promise<{ id: number; stats?: { entries: number } }>((res, rej) => {
        thread.once('message', res);
        thread.once('error', rej);
        thread.postMessage({ id: 1, kind: 'stats' });
      });
      // Its stats also carry the thread's own heap figures (threadHeapBytes, threadExternalBytes).
      expect(reply).toMatchObject({ id: 1, stats: { entries: 0, bytes: 0 } });
    } finally {
      await thread.terminate();
    }
  }, 300_000);

  it('GIVEN the systemd unit\'s ExecStart (node dist/src/main.js) with a token WHEN SIGTERM THEN the bot logs the database, connects, and exits 0', async () => {
    const path = join(dir, 'unit.db');
    const p = startProcess(['dist/src/main.js'], botEnv({ DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, DATABASE_PATH: path, NODE_ENV: 'production' }));
    await p.waitForLine((l) => l.includes('"bot ready"'), 120_000, 'the bot ready');
    expect(p.stdout.some((l) => l.includes('"no database at this path: a new, empty one is created"'))).toBe(true);
    expect(p.stdout.some((l) => l.includes(`database ${path}: 0 campaigns`))).toBe(true);
    const exit = await p.signal('SIGTERM');
    console.info(`ExecStart, SIGTERM: exit ${exit.code} after ${exit.tookMs} ms`);
    expect(exit.code).toBe(0);
  }, 300_000);

  it('GIVEN npm start WHEN it runs THEN npm\'s only child is node running dist/src/main.js, and SIGTERM to npm ends both', async () => {
    const npm = spawnNpmStart({ DATABASE_PATH: join(dir, 'npm-console.db') });
    await fake.waitFor(() => npm.output().includes('Database:'), 120_000, 'the console started by npm');
    const children = childrenOf(npm.pid);
    expect(children).toHaveLength(1);
    expect(children[0]!.cmd).toMatch(/node (--\S+ )*dist\/src\/main\.js$/);
    process.kill(npm.pid, 'SIGTERM');
    await npm.exited;
    await sleep(500);
    expect(children.filter((c) => isAlive(c.pid))).toEqual([]);
  }, 300_000);

  it('GIVEN npm start with a token WHEN a supervisor sends SIGTERM to npm THEN the bot shuts down cleanly and nothing is left running', async () => {
    const npm = spawnNpmStart({ DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, DATABASE_PATH: join(dir, 'npm-bot.db') });
    await fake.waitFor(() => npm.output().includes('"bot ready"'), 120_000, 'the bot ready under npm');
    const [node] = childrenOf(npm.pid);
    expect(node?.cmd).toMatch(/node (--\S+ )*dist\/src\/main\.js$/);
    process.kill(npm.pid, 'SIGTERM');
    await fake.waitFor(() => !isAlive(node!.pid), 120_000, 'the bot process gone');
    await npm.exited;
    expect(npm.output()).toContain('"shutting down"');
    expect(npm.output()).toContain('"stopped"');
  }, 300_000);
});
