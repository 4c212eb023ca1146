import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Configuration from the environment, read once in main. DISCORD_TOKEN decides the transport:
 * with it the bot connects to Discord, without it the console starts.
 */
const schema = z.object({
  DISCORD_TOKEN: z.string().min(1).optional(),
  DISCORD_CLIENT_ID: z.string().min(1).optional(),
  DISCORD_GUILD_ID: z.string().min(1).optional(),
  DATABASE_PATH: z.string().min(1).default('./data/valormr.db'),
  /**
   * PostgreSQL instead of SQLite (several machines on one store, docs/deploy.md):
   * `postgres://USER:PASSWORD@HOST:5432/DATABASE` (or `postgresql://`). Set, it wins over DATABASE_PATH.
   */
  DATABASE_URL: z.string().superRefine(postgresUrlProblem).optional(),
  /**
   * Where the map pictures' static layers are kept between processes (files named by content, safe
   * to share). Default: beside a SQLite database (`<DATABASE_PATH>-layers/`); on PostgreSQL,
   * `valormr-layers-<uid>` in the OS temporary folder.
   */
  RENDER_CACHE_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Run under discord.js's ShardingManager: `auto` (Discord's recommended count) or a number of
   * shards, one process each, all on DATABASE_PATH. Inside a shard process discord.js sets
   * SHARDS itself (the shard's id); it is read there by discord.js, not here.
   */
  SHARDS: z.string().min(1).optional(),
  /**
   * The shards this machine runs when several machines share one bot on PostgreSQL: ids and
   * ranges (`0-15`, `0,2,4-7`) of the SHARDS=N total (a number, the same on every machine).
   */
  SHARD_LIST: z.string().regex(/^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/, 'shard ids and ranges separated by commas, e.g. 0-15 or 0,2,4-7').optional(),
  /** Development: Discord's REST base (and thus the gateway lookup), e.g. a fake Discord's http://127.0.0.1:PORT/api. */
  DISCORD_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** Development: how often the scheduler checks for due ticks (cron, 5 or 6 fields). Default every minute. */
  SCHEDULER_CRON: z.string().regex(/^\S+( \S+){4,5}$/, 'a cron expression of 5 or 6 fields').default('* * * * *'),
  /** The campaign web page: `off` to not serve it. */
  WEB: z.enum(['on', 'off']).default('on'),
  /** Address the web page listens on: loopback by default (put a TLS proxy in front to publish it, docs/deploy.md). */
  WEB_HOST: z.string().min(1).default('127.0.0.1'),
  WEB_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  /** Where people reach the page (the proxy's https address); default http://WEB_HOST:WEB_PORT. */
  WEB_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Which proxies' `X-Forwarded-For` the web page believes (the client's address for its rate
   * limits): `loopback` (the default with WEB_PUBLIC_URL: a proxy on the same machine), `off`, or
   * addresses and networks separated by commas (e.g. `172.17.0.1` for Docker's bridge, `10.0.0.0/8`).
   */
  WEB_TRUST_PROXY: z.string().refine((v) => v === 'off' || v.split(',').every((p) => trustedProxyItem(p.trim())), 'off, loopback, or addresses and networks separated by commas (e.g. 127.0.0.1,10.0.0.0/8)').optional(),
  /** Signs /web links and login cookies (32 characters or more); without it a random one per start (logins end with the process). */
  WEB_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  /** The Discord application's OAuth2 secret: with DISCORD_CLIENT_ID it enables "Log in with Discord". */
  DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
  /** Milliseconds between starting two shards (Discord allows one IDENTIFY per 5 s). */
  SHARD_SPAWN_DELAY_MS: z.coerce.number().int().min(0).default(5500),
});

export type Config = z.infer<typeof schema>;

/** One entry of WEB_TRUST_PROXY: a named range (loopback, linklocal, uniquelocal), an address, or a network with its prefix length. */
function trustedProxyItem(item: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(item)) return true;
  const [addr, bits, extra] = item.split('/');
  const v = isIP(addr ?? '');
  if (v === 0 || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (v === 4 ? 32 : 128));
}

/** The one problem with a DATABASE_URL, said without repeating it (it may hold a password). */
function postgresUrlProblem(value: string, ctx: z.RefinementCtx): void {
  const accepted = 'accepted: postgres://USER:PASSWORD@HOST:5432/DATABASE (or postgresql://...); for SQLite leave DATABASE_URL empty and set DATABASE_PATH to a file';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  if (scheme === undefined) return void ctx.addIssue({ code: 'custom', message: `not a URL (no scheme such as postgres://); ${accepted}` });
  if (!/^postgres(ql)?$/i.test(scheme)) return void ctx.addIssue({ code: 'custom', message: `${scheme}:// is not a store the bot runs on; ${accepted}` });
  if (!URL.canParse(value)) ctx.addIssue({ code: 'custom', message: `not a well-formed URL (a password with @, :, / or # must be percent-encoded, e.g. @ as %40); ${accepted}` });
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Bad configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The shard count asked for (`SHARDS=auto|N`), or undefined to run unsharded. Throws on a bad value. */
export function shardRequest(value: string | undefined): 'auto' | number | undefined {
  if (value === undefined) return undefined;
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Bad configuration:\nSHARDS: "${value}" is neither auto nor a whole number of shards (1 or more)`);
  return n;
}

/** Where the campaigns are: DATABASE_URL (PostgreSQL) when set, else the SQLite file DATABASE_PATH. What `openDatabase` and `createApp` take. */
export function databaseTarget(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_PATH'>): string {
  return config.DATABASE_URL ?? config.DATABASE_PATH;
}

/**
 * The shards this machine runs (SHARD_LIST), checked against the total (SHARDS): undefined when
 * SHARD_LIST is unset (every shard). Throws on a list that cannot go with the total.
 */
export function shardList(list: string | undefined, total: 'auto' | number | undefined): number[] | undefined {
  if (list === undefined) return undefined;
  const bad = (why: string): Error => new Error(`Bad configuration:\nSHARD_LIST: ${why}`);
  if (typeof total !== 'number') throw bad('needs SHARDS set to the total number of shards of the whole bot (the same on every machine), not auto or unset');
  const ids = new Set<number>();
  for (const part of list.split(',')) {
    const [from = 0, to = from] = part.split('-').map((x) => Number(x.trim()));
    if (to < from) throw bad(`"${part.trim()}" is a range that ends before it starts`);
    for (let id = from; id <= to; id++) {
      if (id >= total) throw bad(`shard ${id} is not below SHARDS=${total} (shard ids are 0 to ${total - 1})`);
      ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}
