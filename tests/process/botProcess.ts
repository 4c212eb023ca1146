/**
 * Real OS processes for the tests: the bot's entry point started with `node` (the compiled dist/,
 * or a TypeScript file through tsx's loader in the same process), its output collected line by line, its exit
 * timed. Every process started here is killed by `killAll` (call it in afterEach/afterAll).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedBuild } from '../support/sharedBuild.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `npm start`'s prestart step for a test that runs the compiled bot: dist/ built from these sources
 * when it is stale, once per test run across the test files that ask (tests/support/sharedBuild.ts).
 */
export function buildDist(): void {
  sharedBuild(ROOT, () => {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`scripts/build.mjs --if-stale failed (${build.status}): ${build.stderr}`);
  });
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly at: number;
}

export interface BotProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  readonly startedAt: number;
  readonly stdout: string[];
  readonly stderr: string[];
  /** stdout lines that are JSON log records (pino), parsed. */
  logs(): Record<string, unknown>[];
  readonly exited: Promise<Exit>;
  /** Resolves with the first stdout/stderr line matching, or rejects after `timeoutMs`. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number, what?: string): Promise<string>;
  /** Sends a signal and resolves with the exit and how long it took. */
  signal(sig: NodeJS.Signals): Promise<Exit & { tookMs: number }>;
}

const started = new Set<ChildProcessWithoutNullStreams>();

/**
 * The environment a bot process gets: no .env file, nothing inherited but what node needs. The
 * web page listens on a free port (WEB_PORT=0), never the default 8787, so test files running at
 * once never contend for one port.
 */
export function botEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DOTENV_CONFIG_PATH: join(ROOT, 'tests', 'process', 'no-such.env'),
    DOTENV_CONFIG_QUIET: 'true',
    LOG_LEVEL: 'info',
    WEB_PORT: '0',
    // On PostgreSQL, the bridge's worker compiled once for the run (tests/setup/compileBridgeWorker.ts).
    ...(process.env.VALORMR_BRIDGE_WORKER_JS ? { VALORMR_BRIDGE_WORKER_JS: process.env.VALORMR_BRIDGE_WORKER_JS } : {}),
    ...extra,
  };
}

/** Starts `node <args>` in the repository root (or in `cwd`). */
export function startProcess(args: readonly string[], env: NodeJS.ProcessEnv, cwd = ROOT): BotProcess {
  const child = spawn(process.execPath, [...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  started.add(child);
  const startedAt = Date.now();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const listeners = new Set<(line: string) => void>();
  const collect = (into: string[]) => {
    let rest = '';
    return (chunk: Buffer): void => {
      rest += chunk.toString('utf8');
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        into.push(line);
        for (const l of [...listeners]) l(line);
      }
    };
  };
  child.stdout.on('data', collect(stdout));
  child.stderr.on('data', collect(stderr));
  const exited = new Promise<Exit>((res) => child.once('exit', (code, signal) => {
    started.delete(child);
    res({ code, signal, at: Date.now() });
  }));
  return {
    child,
    pid: child.pid!,
    startedAt,
    stdout,
    stderr,
    exited,
    logs: () => stdout.flatMap((l) => {
      try {
        const o = JSON.parse(l) as unknown;
        return typeof o === 'object' && o !== null ? [o as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    }),
    waitForLine(match, timeoutMs = 120_000, what = 'a line') {
      const seen = [...stdout, ...stderr].find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<string>((res, rej) => {
        const timer = setTimeout(() => {
          listeners.delete(listener);
          rej(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\nstdout:\n${stdout.slice(-20).join('\n')}\nstderr:\n${stderr.slice(-20).join('\n')}`));
        }, timeoutMs);
        const listener = (line: string): void => {
          if (!match(line)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          res(line);
        };
        listeners.add(listener);
        void exited.then((e) => {
          if (!listeners.has(listener)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          rej(new Error(`the process exited (${e.code ?? e.signal}) before ${what}\nstdout:\n${stdout.slice(-20).join('\n')}\nstderr:\n${stderr.slice(-20).join('\n')}`));
        });
      });
    },
    async signal(sig) {
      const at = Date.now();
      child.kill(sig);
      const e = await exited;
      return { ...e, tookMs: e.at - at };
    },
  };
}

/**
 * The compiled bot (`node dist/src/main.js`, as `npm start` runs it; `buildDist()` first, in the file's beforeAll): the
 * program that ships, and a start without tsx's loader (seconds a start on a loaded machine, and
 * these files start dozens). The TypeScript entry through tsx is `npm run dev`'s.
 */
export function startBot(env: Record<string, string>, args: readonly string[] = []): BotProcess {
  return startProcess(['dist/src/main.js', ...args], botEnv(env));
}

/** Kills every process these helpers started that is still running (and waits for them). */
export async function killAll(): Promise<void> {
  const alive = [...started];
  await Promise.all(alive.map((c) => new Promise<void>((res) => {
    if (c.exitCode !== null || c.signalCode !== null) return res();
    c.once('exit', () => res());
    c.kill('SIGKILL');
  })));
}

/** Waits `ms`. */
/** Whether a process with this pid is still running (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((res) => setTimeout(res, ms));
