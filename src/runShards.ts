import { ShardingManager, type Shard } from 'discord.js';
import { shardList, type Config } from './config.js';
import { IdentifyGate } from './discord/identifyGate.js';

/** How long the manager waits for its shards to stop after passing a signal on, before killing them. */
const SHARD_STOP_MS = 3000;

/**
 * Discord's recommended shard count for the bot and how many shards may identify at once
 * (GET /gateway/bot), asked of DISCORD_API_BASE when set.
 */
async function gatewayBot(token: string, apiBase: string | undefined): Promise<{ shards: number; maxConcurrency: number }> {
  const base = (apiBase ?? 'https://discord.com/api').replace(/\/$/, '');
  const response = await fetch(`${base}/v10/gateway/bot`, { headers: { authorization: `Bot ${token}` }, signal: AbortSignal.timeout(15_000) });
  if (response.status === 401) throw Object.assign(new Error('An invalid token was provided'), { code: 'TokenInvalid' });
  if (!response.ok) throw new Error(`Discord did not give a shard count (GET /gateway/bot: HTTP ${response.status})`);
  const body = (await response.json()) as { shards?: number; session_start_limit?: { max_concurrency?: number } };
  return { shards: Math.max(1, Number(body.shards ?? 1)), maxConcurrency: Math.max(1, Number(body.session_start_limit?.max_concurrency ?? 1)) };
}

/**
 * Runs the bot as a ShardingManager: one process per shard (this same entry point, with the same
 * Node options), every one on the same database (SQLite WAL). Each shard plays only its own
 * guilds' campaigns; the delivery workers of all shards share the outbox through its claims.
 * - SIGINT/SIGTERM to the manager is passed to every shard, which stops within 2 s; the manager
 *   exits when they are gone (killing any left after 3 s).
 * - A shard that dies (a crash, or a fatal Discord state such as a revoked token) takes the
 *   others and the manager down with a non-zero exit code: the supervisor restarts or alerts.
 */
export async function runShards(config: Config, requested: 'auto' | number, entry: { file: string; execArgv: readonly string[] }): Promise<void> {
  const token = config.DISCORD_TOKEN;
  if (!token) throw new Error('DISCORD_TOKEN is not set');
  // This machine's part of a bot spread over several (SHARD_LIST), checked before Discord is asked.
  const list = shardList(config.SHARD_LIST, requested);
  const gateway = await gatewayBot(token, config.DISCORD_API_BASE);
  const totalShards = requested === 'auto' ? gateway.shards : requested;
  const mine = list ?? Array.from({ length: totalShards }, (_, i) => i);
  // Every shard process asks this gate before it identifies: max_concurrency at once, each
  // bucket's next 5 s after the previous IDENTIFY was answered.
  const gate = new IdentifyGate(gateway.maxConcurrency);
  const manager = new ShardingManager(entry.file, { token, totalShards, ...(list ? { shardList: list } : {}), mode: 'process', respawn: false, execArgv: [...entry.execArgv], shardArgs: [] });
  const say = (line: string): void => void process.stderr.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, manager: true, msg: line })}\n`);

  let stopping = false;
  const stopAll = async (exitCode: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.exitCode = exitCode;
    const alive = [...manager.shards.values()].filter((s) => s.process && s.process.exitCode === null && s.process.signalCode === null);
    const gone = Promise.all(alive.map((s) => new Promise<void>((resolve) => s.process!.once('exit', () => resolve()))));
    for (const s of alive) s.process!.kill(signal);
    const late = setTimeout(() => {
      for (const s of alive) s.process?.kill('SIGKILL');
    }, SHARD_STOP_MS);
    await gone;
    clearTimeout(late);
    say(`all shards stopped (exit ${exitCode})`);
    process.exit(exitCode);
  };

  manager.on('shardCreate', (shard: Shard) => {
    shard.on('message', (message: unknown) => gate.answer(message, (go) => {
      say(`shard ${shard.id} may identify`);
      shard.send(go).catch(() => undefined);
    }, () => say(`shard ${shard.id} did not say its IDENTIFY was answered within a minute: the next shard of its bucket goes`)));
    shard.on('death', (child) => {
      if (stopping) return;
      const code = 'exitCode' in child && typeof child.exitCode === 'number' ? child.exitCode : 1;
      say(`shard ${shard.id} stopped (exit ${code}): stopping the others`);
      void stopAll(code === 0 ? 1 : code);
    });
  });
  process.once('SIGINT', () => void stopAll(0, 'SIGTERM'));
  process.once('SIGTERM', () => void stopAll(0, 'SIGTERM'));

  const which = list ? ` (${list.join(',')} of ${totalShards})` : '';
  say(`starting ${mine.length} shard${mine.length === 1 ? '' : 's'}${which} (up to ${gateway.maxConcurrency} identifying at once, 5 s apart)`);
  try {
    await manager.spawn({ amount: totalShards, delay: config.SHARD_SPAWN_DELAY_MS, timeout: 60_000 });
  } catch (error) {
    if (stopping) return;
    await stopAll(1);
    throw error;
  }
  say(`${mine.length} shard${mine.length === 1 ? '' : 's'}${which} ready`);
}
