import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { campaignCounts } from '../app/campaignCounts.js';
import { createApp } from '../app/createApp.js';
import { seededDice } from './seededDice.js';
import { ManualClock, type Logger } from '../app/ports.js';
import type { App } from '../app/app.js';
import { describeTarget, isPostgresTarget } from '../app/storeTarget.js';
import { databaseTarget, loadConfig } from '../config.js';
import { ConsoleLock, DatabaseFileGuard, DatabaseGoneError, openOrExplain } from '../databaseGuard.js';
import { failureLine } from '../failure.js';
import { ConsoleSession, type ConsoleOutput } from './session.js';

export interface ConsoleFlags {
  readonly script?: string;
  readonly db?: string;
  readonly seed?: number;
  readonly dice?: number[];
  readonly out?: string;
  readonly now?: string;
  /** JSON lines even at a terminal. */
  readonly json?: boolean;
}

export function parseConsoleFlags(argv: readonly string[]): ConsoleFlags {
  const { values } = parseArgs({
    args: [...argv],
    options: { script: { type: 'string' }, db: { type: 'string' }, seed: { type: 'string' }, dice: { type: 'string' }, out: { type: 'string' }, now: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: false,
  });
  const seed = values.seed !== undefined ? Number(values.seed) : undefined;
  if (seed !== undefined && !Number.isInteger(seed)) throw new Error('--seed takes a whole number, e.g. --seed 42');
  const dice = values.dice?.split(',').map((d) => Number(d.trim()));
  if (dice?.some((d) => !Number.isInteger(d) || d < 1 || d > 6)) throw new Error('--dice takes d6 results separated by commas, e.g. --dice 3,5,1');
  return { ...values, ...(seed !== undefined ? { seed } : {}), ...(dice ? { dice } : {}) } as ConsoleFlags;
}

/**
 * How an output line reads to a person at a terminal: headed by who sees it, Markdown's bold in
 * the terminal's bold (`color`), or plain.
 */
export function pretty(o: ConsoleOutput, color = false): string {
  const who = { reply: 'reply', ephemeral: `only ${o.user ?? 'you'}`, dm: `DM to ${o.user ?? '?'}`, channel: 'channel' }[o.to];
  const files = o.files && o.files.length > 0 ? `\n  [files: ${o.files.join(', ')}]` : '';
  const text = o.content.replace(/\*\*(.+?)\*\*/g, color ? '\u001b[1m$1\u001b[22m' : '$1').replace(/__(.+?)__/g, color ? '\u001b[4m$1\u001b[24m' : '$1');
  return `── ${who} ──\n${text}${files}`;
}

export const HINT = [
  'Valormr console. Type lines like:',
  '  @referee /campaign create scenario:valormr name:"Autumn War"',
  '  @referee /campaign assign army:hadewych user:alice',
  '  @alice /army status army:hadewych',
  '  !tick            (play one half period)      @alice /help      (every command)',
  'Ctrl-D to quit.',
].join('\n');

/**
 * The console's logger: warnings and errors go to stderr (stdout carries the protocol), so the
 * reference in "Something went wrong (ref abc123)" points at a line the user can read.
 */
export function consoleLogger(write: (line: string) => void = (line) => void process.stderr.write(line)): Logger {
  const line = (level: string) => (obj: object, msg?: string): void => {
    const o = obj as { ref?: string; err?: { message?: string; stack?: string } | string };
    const err = typeof o.err === 'string' ? o.err : o.err?.stack ?? o.err?.message;
    write(`${level}: ${msg ?? ''}${o.ref ? ` (ref ${o.ref})` : ''}${err ? `: ${err}` : ''}\n`);
  };
  return { debug: () => {}, info: () => {}, warn: line('warning'), error: line('error') };
}

/**
 * The app and console session a script plays through (`--script`, and the adjudication cases of
 * docs/cases, which must play exactly as a script does). The clock is the manual one: `!now` sets it.
 */
export function openConsole(flags: ConsoleFlags, opts: { databasePath: string; renderCacheDir?: string; outDir: string; write: (o: ConsoleOutput) => void; saveFiles?: boolean; timeZone?: string; logger?: Logger }): { app: ReturnType<typeof createApp>; session: ConsoleSession } {
  const app = createApp({
    databasePath: opts.databasePath,
    ...(opts.renderCacheDir ? { renderCacheDir: opts.renderCacheDir } : {}),
    clock: new ManualClock(flags.now ? new Date(flags.now) : new Date()),
    logger: opts.logger ?? consoleLogger(),
    ...(flags.seed !== undefined || flags.dice ? { dice: seededDice(flags.seed, flags.dice ?? []) } : {}),
  });
  const session = new ConsoleSession(app, {
    where: { guildId: 'console', channelId: 'console', baseDir: flags.script ? dirname(resolve(flags.script)) : process.cwd() },
    outDir: opts.outDir,
    write: opts.write,
    ...(opts.saveFiles !== undefined ? { saveFiles: opts.saveFiles } : {}),
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
  });
  return { app, session };
}

/**
 * The console's database and picture folder. Scripts get a fresh database unless told otherwise
 * (--db, or a PostgreSQL DATABASE_URL, which is a store chosen on purpose); `npm start` always
 * uses the real one. Pictures go beside a script's database file; a URL has no folder, so a fresh one.
 */
function consoleStore(flags: ConsoleFlags, defaults: { databasePath: string; persistent?: boolean }, scripted: boolean): { databasePath: string; outDir: string } {
  const fresh = scripted && !defaults.persistent && !isPostgresTarget(defaults.databasePath);
  const scratch = (): string => mkdtempSync(join(tmpdir(), 'valormr-'));
  const databasePath = flags.db ?? (fresh ? join(scratch(), 'campaign.db') : defaults.databasePath);
  const outDir = resolve(flags.out ?? (!scripted ? './out' : isPostgresTarget(databasePath) ? scratch() : dirname(databasePath)));
  return { databasePath, outDir };
}

/**
 * Runs the console transport: interactively (a prompt) or over a script file or piped input.
 * Output is one JSON object per line.
 */
export async function runConsole(flags: ConsoleFlags, defaults: { databasePath: string; persistent?: boolean; renderCacheDir?: string; withApp?: (app: App) => Promise<{ close(): Promise<void> } | undefined> }): Promise<void> {
  const scripted = flags.script !== undefined || !process.stdin.isTTY;
  const { databasePath, outDir } = consoleStore(flags, defaults, scripted);
  // One console per database file, and like the bot it stops if that file is deleted or replaced.
  const { app, session } = openOrExplain(databasePath, () => openConsole(flags, {
    databasePath,
    outDir,
    ...(defaults.renderCacheDir ? { renderCacheDir: defaults.renderCacheDir } : {}),
    // A person at a terminal reads text; scripts and pipes get the JSON-lines protocol.
    write: (o) => process.stdout.write(process.stdout.isTTY && !flags.script && !flags.json ? `${pretty(o, !process.env.NO_COLOR)}\n` : `${JSON.stringify(o)}\n`),
  }));
  let lock: ConsoleLock | undefined;
  try {
    lock = ConsoleLock.take(databasePath);
  } catch (err) {
    app.close();
    throw err;
  }
  const guard = DatabaseFileGuard.watch(databasePath, 'the console');
  /** True while the database file is the one opened; otherwise says why on stderr and sets exit code 1. */
  const databaseOk = (): boolean => {
    const problem = guard?.problem();
    if (problem === undefined) return true;
    process.stderr.write(`The console stopped: ${failureLine(new DatabaseGoneError(problem))}\n`);
    process.exitCode = 1;
    return false;
  };
  const extra = await defaults.withApp?.(app).catch((err: unknown) => {
    app.close();
    lock?.release();
    throw err;
  });
  try {
    if (flags.script) {
      for (const line of readFileSync(flags.script, 'utf8').split(/\r?\n/)) {
        if (!databaseOk()) return;
        await session.handle(line);
      }
      return;
    }
    if (!scripted || defaults.persistent) {
      const { total } = campaignCounts(app);
      process.stderr.write(`${HINT}\nDatabase: ${describeTarget(databasePath)} (${total} campaign${total === 1 ? '' : 's'})\n`);
      if (app.web) process.stderr.write(`Campaign web page: ${app.web.publicUrl} (\`@you /web\` gives your private link)\n`);
    }
    const rl = createInterface({ input: process.stdin, ...(scripted ? {} : { output: process.stderr, prompt: '> ' }) });
    if (!scripted) rl.prompt();
    for await (const line of rl) {
      if (!databaseOk()) break;
      await session.handle(line);
      if (!scripted) rl.prompt();
    }
    rl.close();
  } finally {
    await extra?.close();
    app.close();
    lock?.release();
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]).replace(/\.ts$/, '') === resolve(new URL(import.meta.url).pathname).replace(/\.ts$/, '');
if (isMain) void runAsScript();

/** `npm run console`: the console on DATABASE_URL or DATABASE_PATH, flags from the command line. */
async function runAsScript(): Promise<void> {
  try {
    // DATABASE_URL (PostgreSQL) or DATABASE_PATH, checked as the bot checks them.
    const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATABASE_PATH: process.env.DATABASE_PATH, RENDER_CACHE_DIR: process.env.RENDER_CACHE_DIR });
    await runConsole(parseConsoleFlags(process.argv.slice(2)), { databasePath: databaseTarget(config), ...(config.RENDER_CACHE_DIR ? { renderCacheDir: config.RENDER_CACHE_DIR } : {}) });
  } catch (e) {
    process.stderr.write(`The console could not start: ${failureLine(e)}\n`);
    process.exitCode = 2;
  }
}
