/**
 * "Machines" of a bot spread over several on one PostgreSQL (docs/deploy.md): each is the bot's
 * sharding manager with SHARDS=<total> and its own SHARD_LIST, a real OS process with its shard
 * process under it. `crash` kills the shard process with SIGKILL (the manager, seeing its shard
 * die, exits non-zero) and starts the machine again, as a supervisor would.
 */
import { botEnv, startProcess, type BotProcess } from './botProcess.js';

export interface Machine {
  readonly shard: number;
  process: BotProcess;
  /** The shard process's pid once it said "bot ready". */
  pid: number | undefined;
  ready: boolean;
  /** How many times it was started. */
  starts: number;
  /** Every shard process it ran (to check each killed one is gone). */
  readonly pids: number[];
  /** Every manager process it ran, the current one last (their output, for a failure's story). */
  readonly runs: BotProcess[];
  /** The name each run gave Discord (`<shard>.<start>`, the fake's `via`), the current one last. */
  readonly names: string[];
  /** Its REST base for a run's name (the fake's viaApi), when its requests are to be told apart. */
  readonly api: ((name: string) => string) | undefined;
}

/** Starts machine `shard` of `total` with `env` (DATABASE_URL, the fake Discord...). */
export function startMachine(shard: number, total: number, env: Record<string, string>, api?: (name: string) => string): Machine {
  const m = { shard, pid: undefined, ready: false, starts: 0, pids: [], runs: [], names: [], api } as unknown as Machine;
  boot(m, total, env);
  return m;
}

function boot(m: Machine, total: number, env: Record<string, string>): void {
  m.ready = false;
  m.pid = undefined;
  m.starts += 1;
  const name = `${m.shard}.${m.starts}`;
  m.names.push(name);
  // The compiled bot (dist/, as `npm start` runs it): no TypeScript loader to start in every process.
  const p = startProcess(['dist/src/main.js'], botEnv({ ...env, ...(m.api ? { DISCORD_API_BASE: m.api(name) } : {}), SHARDS: String(total), SHARD_LIST: String(m.shard), SHARD_SPAWN_DELAY_MS: '0' }));
  m.process = p;
  m.runs.push(p);
  p.waitForLine((l) => l.includes('"bot ready"'), 600_000, `machine ${m.shard} ready`).then((line) => {
    if (m.process !== p) return;
    m.pid = Number((JSON.parse(line) as { pid: number }).pid);
    m.pids.push(m.pid);
    m.ready = true;
  }, () => undefined);
}

/** Kills the machine's shard process (kill -9), waits for its manager to exit, and starts it again. */
export async function crash(m: Machine, total: number, env: Record<string, string>): Promise<{ pid: number; name: string; managerExit: number | null }> {
  const pid = m.pid;
  const name = m.names.at(-1) as string;
  if (pid === undefined) throw new Error(`machine ${m.shard} is not running a shard`);
  m.ready = false;
  process.kill(pid, 'SIGKILL');
  const exit = await m.process.exited;
  boot(m, total, env);
  return { pid, name, managerExit: exit.code };
}

/** Resolves once every machine is ready (or rejects after `timeoutMs`). */
export async function allReady(machines: readonly Machine[], timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!machines.every((m) => m.ready)) {
    if (Date.now() > until) throw new Error(`machines not ready after ${timeoutMs} ms: ${machines.filter((m) => !m.ready).map((m) => `${m.shard}: ${m.process.stderr.slice(-5).join(' | ')}`).join('; ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
