/**
 * A fake Discord on loopback, written from Discord's API documentation, strict enough that what
 * it accepts Discord would accept. The real discord.js Client logs in, receives interactions and
 * answers them, sends DMs and channel posts, reconnects and resumes, in one process or as the
 * shards of a ShardingManager.
 *
 * REST under http://127.0.0.1:PORT/api/v10 (pass `fake.restApi` as the client's `rest.api`):
 * - GET /gateway and /gateway/bot (the recommended shard count is `recommendedShards`);
 * - interaction callbacks (the callback type must suit the interaction type) and interaction
 *   webhooks (@original and follow-ups);
 * - DM channel creation, GET /channels/:id, channel messages (JSON or multipart with files):
 *   the bot's permissions in the channel are enforced (50001 Missing Access, 50013 Missing
 *   Permissions), and `nonce` with `enforce_nonce` is honoured as Discord does: the same nonce
 *   from the bot in the same channel within a few minutes returns the message already created;
 * - every message body is validated as Discord does (empty message, 2,000 characters, 5 action
 *   rows of 5 buttons, custom ids of 1-100 characters and unique, embed limits, `attachments`
 *   matching the file parts, `allowed_mentions` shape), and who would be pinged is computed from
 *   the content and `allowed_mentions` (`FakeMessage.pinged`);
 * - command registration (PUT global or guild): names, descriptions, option order and counts,
 *   choices, 4,000 characters per command, contexts;
 * - realistic rate limits (`rateLimit`): 429 with `retry-after`, `x-ratelimit-*` headers and
 *   global or per-route scope; every success carries bucket headers too.
 *   Every request is recorded in `calls`; every refusal of a malformed request in `refusals`.
 *
 * Gateway over ws on the same port: HELLO, heartbeats and their ACKs (`stopAcks` to play a
 * zombie connection), IDENTIFY (with `shard: [i, n]`: READY and GUILD_CREATE for the guilds of
 * that shard only, by Discord's formula (guild_id >> 22) % n), RESUME (only on the
 * `resume_gateway_url` READY gave, which differs from the gateway URL) with replay of missed
 * dispatches, op 7 RECONNECT, INVALID_SESSION, and server close codes (4000, 4004, ...).
 *
 * Ephemerality is computed the way Discord does it: an edit of @original, or the first follow-up
 * after a deferral, takes the deferral's visibility; later follow-ups use their own flags.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const API_PREFIX = '/api/v10';
const EPHEMERAL = 1 << 6;
const DISCORD_EPOCH = 1420070400000n;
/** How long Discord remembers a nonce sent with enforce_nonce ("a few minutes"). */
const NONCE_WINDOW_MS = 5 * 60_000;
/**
 * How long an interaction may wait for its first answer. Discord allows 3 s; the fake allows 60 s
 * so that a test on a loaded machine checks that the bot answers (and defers when it must), not how
 * fast: speed is a bench figure. An interaction pushed with a larger `ageMs` is refused as expired.
 */
export const ANSWER_WINDOW_MS = 60_000;
/** The default wait for a condition: generous, so a loaded machine does not fail a correct test. */
const WAIT_MS = 60_000;

/** Permission bits the fake knows about (Discord's values). */
export const Perm = {
  Administrator: 1n << 3n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  MentionEveryone: 1n << 17n,
  UseApplicationCommands: 1n << 31n,
  SendMessagesInThreads: 1n << 38n,
} as const;
export type PermName = keyof typeof Perm;
const ALL_TEXT = Perm.ViewChannel | Perm.SendMessages | Perm.EmbedLinks | Perm.AttachFiles | Perm.UseApplicationCommands | Perm.SendMessagesInThreads;
/** What a bot gets in a DM channel. */
const DM_PERMISSIONS = Perm.ViewChannel | Perm.SendMessages | Perm.EmbedLinks | Perm.AttachFiles | Perm.UseApplicationCommands;

/** Interaction types, and the callback types Discord accepts for each. */
const CALLBACKS_FOR: Record<number, readonly number[]> = {
  1: [1],
  2: [4, 5, 9, 12],
  3: [4, 5, 6, 7, 9],
  4: [8],
  5: [4, 5, 6, 7],
};

/** Privileged intents, refused with 4014 unless enabled in the (fake) developer portal. */
const PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15);
const ALL_INTENTS = (1 << 26) - 1;

export interface RecordedFile {
  readonly field: string;
  readonly name: string;
  readonly contentType: string;
  readonly data: Uint8Array;
}

export interface RecordedCall {
  readonly method: string;
  /** Path after /api/v10, URI-decoded, e.g. "/webhooks/1/tok/messages/@original". */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly auth: string | undefined;
  /** JSON body, or the payload_json part of a multipart body. */
  readonly body: unknown;
  readonly files: readonly RecordedFile[];
  readonly status: number;
  readonly at: number;
  /**
   * The sender had gone before the answer was written (its connection closed): it never learned the
   * answer. A REST timeout (discord.js then sends the same request again, with the same nonce), or
   * a sender killed with its request in flight.
   */
  readonly abandoned: boolean;
  /** Who sent it, when the sender's REST base named itself (`viaApi`): e.g. one process of several. */
  readonly via: string | undefined;
}

/** A request the fake refused as malformed (what Discord would answer 400 to). */
export interface Refusal {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly answer: unknown;
}

export interface FakeUser {
  readonly id: string;
  readonly username: string;
  readonly global_name: string | null;
  readonly discriminator: string;
  readonly avatar: null;
  readonly bot?: boolean;
}

/** Who a message pings, as Discord would work it out from the content and `allowed_mentions`. */
export interface Pinged {
  readonly users: readonly string[];
  readonly roles: readonly string[];
  readonly everyone: boolean;
}

/** A message as the fake stored it (a channel post, a DM, or an interaction answer). */
export interface FakeMessage {
  readonly id: string;
  readonly channelId: string;
  readonly guildId: string | undefined;
  /** For a DM channel: the recipient. */
  readonly dmUserId: string | undefined;
  readonly interactionId: string | undefined;
  readonly ephemeral: boolean;
  content: string;
  components: unknown[];
  embeds: unknown[];
  files: RecordedFile[];
  readonly kind: 'channel' | 'dm' | 'interaction';
  readonly at: number;
  readonly nonce: string | undefined;
  /** `allowed_mentions` as sent (undefined when the body had none). */
  allowedMentions: unknown;
  pinged: Pinged;
}

export interface InteractionRecord {
  readonly id: string;
  readonly token: string;
  readonly type: number;
  readonly channelId: string;
  readonly userId: string;
  readonly pushedAt: number;
  /** Callback types received, in order (4 reply, 5 deferred, 8 autocomplete result...). */
  callbacks: { type: number; data: unknown; at: number }[];
  deferredEphemeral: boolean | undefined;
  originalDone: boolean;
  /** Visible messages of this interaction, in order. */
  messages: FakeMessage[];
  /** A button press: the message its button is on (an update, type 7 or 6 then an edit of @original, edits it). */
  readonly componentMessage?: FakeMessage;
  autocompleteChoices: { name: string; value: string | number }[] | undefined;
}

type OptionValue = string | number | boolean | { attachment: { name: string; content: string | Uint8Array; contentType?: string } };

interface Resolved {
  users: Record<string, unknown>;
  members: Record<string, unknown>;
  roles: Record<string, unknown>;
  attachments: Record<string, unknown>;
}

interface CommandOptionSchema {
  name: string;
  type: number;
  description?: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: string | number }[];
  options?: CommandOptionSchema[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  channel_types?: number[];
}

interface CommandSchema {
  name: string;
  type?: number;
  description?: string;
  options?: CommandOptionSchema[];
  contexts?: number[] | null;
  integration_types?: number[];
  default_member_permissions?: string | null;
  nsfw?: boolean;
}

export interface PushCommandArgs {
  readonly command: string;
  readonly subcommand?: string;
  readonly group?: string;
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly userId: string;
  /** For autocomplete: the option being typed. */
  readonly focused?: string;
  /** A guild channel, or a DM channel id (`dmChannelOf`). Default: the first guild's campaign channel. */
  readonly channelId?: string;
  /** Pretend the interaction was created this long ago (over 3,000 ms: Discord refuses the answer). */
  readonly ageMs?: number;
}

export interface FakeDiscordOptions {
  readonly token?: string;
  /** HELLO's heartbeat interval (Discord sends about 41 s; lower it to see heartbeats in a test). */
  readonly heartbeatIntervalMs?: number;
  /** Extra members besides the bot (members of every guild). */
  readonly users?: readonly { id: string; username: string; roles?: string[] }[];
  /** GET /gateway/bot's recommended shard count. Default 1. */
  readonly recommendedShards?: number;
  /** GET /gateway/bot's `session_start_limit.max_concurrency`: shards that may identify at once. Default 1. */
  readonly maxConcurrency?: number;
  /** Answer a message create with full bucket headers (limit 5) but never run out. Default true. */
  readonly rateLimitHeaders?: boolean;
  /**
   * Keep every session of a shard (two processes on one token) and give each interaction to all
   * of them, as Discord does. Default false: a shard identifying again replaces its session.
   */
  readonly everySession?: boolean;
}

interface FakeChannel {
  readonly id: string;
  readonly guildId: string;
  name: string;
  /** 0 text, 11 public thread. */
  readonly type: 0 | 11;
  readonly parentId: string | null;
  /** Permission overwrites, as Discord sends them. */
  overwrites: { id: string; type: 0 | 1; allow: bigint; deny: bigint }[];
}

export interface FakeGuild {
  readonly id: string;
  readonly name: string;
  readonly botRoleId: string;
  readonly refereeRoleId: string;
  /** The guild's first text channel (where tests create campaigns). */
  readonly channelId: string;
  everyonePermissions: bigint;
  botRolePermissions: bigint;
}

/** A gateway session (one per shard identified). */
export interface FakeSession {
  readonly id: string;
  readonly shard: readonly [number, number];
  readonly guildIds: readonly string[];
  socket: WebSocket | undefined;
  ready: boolean;
  seq: number;
  readonly log: { s: number; t: string; d: unknown }[];
}

interface Connection {
  readonly ws: WebSocket;
  readonly path: string;
  session: FakeSession | undefined;
}

interface RateLimitRule {
  readonly match: (method: string, path: string) => boolean;
  readonly until: number;
  readonly global: boolean;
  readonly scope: 'user' | 'shared' | 'global';
  readonly bucket: string;
  remaining: number;
}

interface FailureRule {
  readonly match: (method: string, path: string, body: unknown) => boolean;
  readonly status: number;
  readonly body: unknown;
  remaining: number;
  readonly delayMs: number;
  /** Do the work (create the message) first, then answer with the failure or the delay. */
  readonly afterCreate: boolean;
  /** Close the connection instead of answering (after the work, with afterCreate): "other side closed". */
  readonly drop?: boolean;
}

let counter = 0n;
/** A real-looking snowflake: time-ordered, unique in the process. */
export function snowflake(): string {
  counter += 1n;
  return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) + (counter % 4096n)).toString();
}

/** A snowflake whose guild lands on shard `shard` of `count` by Discord's formula. */
function snowflakeOnShard(shard: number, count: number): string {
  counter += 1n;
  const ms = BigInt(Date.now()) - DISCORD_EPOCH - 100_000n;
  const t = ms - (ms % BigInt(count)) + BigInt(shard);
  return ((t << 22n) + (counter % 4096n)).toString();
}

/** Discord's formula: the shard a guild's events go to. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

function user(id: string, username: string, bot = false): FakeUser {
  return { id, username, global_name: username, discriminator: '0', avatar: null, ...(bot ? { bot: true } : {}) };
}

function formError(path: string, code: string, message: string): [number, unknown] {
  const errors: Record<string, unknown> = {};
  let node = errors;
  const keys = path.split('.');
  keys.forEach((k, i) => {
    const next: Record<string, unknown> = i === keys.length - 1 ? { _errors: [{ code, message }] } : {};
    node[k] = next;
    node = next;
  });
  return [400, { message: 'Invalid Form Body', code: 50035, errors }];
}

export class FakeDiscord {
  readonly token: string;
  readonly appId = snowflake();
  readonly botUser: FakeUser = user(snowflake(), 'Valormr Bot', true);
  readonly members = new Map<string, { user: FakeUser; roles: string[] }>();
  readonly guilds: FakeGuild[] = [];

  readonly calls: RecordedCall[] = [];
  readonly refusals: Refusal[] = [];
  readonly messages: FakeMessage[] = [];
  readonly interactions = new Map<string, InteractionRecord>();
  readonly sessions: FakeSession[] = [];
  identifies = 0;
  /** Every IDENTIFY accepted: the shard and when it came (Date.now()). */
  readonly identifyLog: { readonly shard: readonly [number, number]; readonly at: number }[] = [];
  readonly maxConcurrency: number;
  resumes = 0;
  /** Resume attempts that came to the plain gateway URL instead of the resume URL (refused). */
  resumesOnWrongUrl = 0;
  /** Heartbeats received. */
  heartbeats = 0;
  /** Number of gateway connections opened so far, and on which path. */
  connections = 0;
  readonly connectionPaths: string[] = [];
  /** Close codes the fake sent. */
  readonly closes: number[] = [];
  recommendedShards: number;
  /** The upload limit interactions carry (attachment_size_limit) and every message is held to: a larger file is answered 413 (code 40005), as Discord does. */
  attachmentLimit = 10 * 1024 * 1024;

  private readonly server: Server;
  private readonly wss: WebSocketServer;
  private readonly conns = new Set<Connection>();
  private refuseResume = false;
  private acking = true;
  private tokenValid = true;
  private readonly closedDms = new Set<string>();
  private readonly dmChannels = new Map<string, string>(); // channel id -> user id
  private readonly channels = new Map<string, FakeChannel>();
  private readonly attachments = new Map<string, { name: string; data: Uint8Array; contentType: string }>();
  private readonly nonces = new Map<string, { message: FakeMessage; at: number }>();
  private commands: CommandSchema[] = [];
  private failures: FailureRule[] = [];
  private limits: RateLimitRule[] = [];
  private readonly waiters = new Set<() => void>();
  private port = 0;
  private readonly heartbeatIntervalMs: number;
  private readonly rateLimitHeaders: boolean;
  private readonly everySession: boolean;

  private constructor(options: FakeDiscordOptions) {
    this.token = options.token ?? 'fake-token.for-tests.only';
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 41_250;
    this.recommendedShards = options.recommendedShards ?? 1;
    this.maxConcurrency = options.maxConcurrency ?? 1;
    this.rateLimitHeaders = options.rateLimitHeaders ?? true;
    this.everySession = options.everySession ?? false;
    for (const u of options.users ?? []) this.members.set(u.id, { user: user(u.id, u.username), roles: u.roles ?? [] });
    this.members.set(this.botUser.id, { user: this.botUser, roles: [] });
    const first = this.addGuild({ name: 'Valormr Test Guild' });
    this.addChannel(first.id, 'general');
    this.server = createServer((req, res) => void this.onHttp(req, res));
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (req, socket, head) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws, new URL(req.url ?? '/', 'http://x').pathname));
    });
  }

  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** Base URL for the client's `rest.api` option (and DISCORD_API_BASE). */
  get restApi(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  /** A REST base for one sender among several: its requests are recorded with `via: name`. */
  viaApi(name: string): string {
    return `http://127.0.0.1:${this.port}/via/${encodeURIComponent(name)}/api`;
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }

  /** The URL READY gives for resuming: not the gateway URL, as on Discord. */
  get resumeUrl(): string {
    return `ws://127.0.0.1:${this.port}/resume`;
  }

  // ---- guilds, channels, members, permissions ---------------------------------------------

  /** The first guild (the tests' default). */
  get guildId(): string {
    return this.guilds[0]!.id;
  }

  get channelId(): string {
    return this.guilds[0]!.channelId;
  }

  /** A second text channel of the first guild. */
  get otherChannelId(): string {
    return [...this.channels.values()].find((c) => c.guildId === this.guildId && c.id !== this.channelId)!.id;
  }

  get refereeRoleId(): string {
    return this.guilds[0]!.refereeRoleId;
  }

  /**
   * Adds a guild (every member is in every guild) with one text channel. With `shard: [i, n]`
   * its id lands on shard i of n. Guilds added after a shard identified reach it with GUILD_CREATE.
   */
  addGuild(opts: { name?: string; shard?: readonly [number, number] } = {}): FakeGuild {
    const id = opts.shard ? snowflakeOnShard(opts.shard[0], opts.shard[1]) : snowflake();
    const channelId = snowflake();
    const guild: FakeGuild = {
      id, name: opts.name ?? `Guild ${this.guilds.length + 1}`, botRoleId: snowflake(), refereeRoleId: snowflake(), channelId,
      everyonePermissions: Perm.ViewChannel | Perm.SendMessages | Perm.UseApplicationCommands,
      botRolePermissions: ALL_TEXT,
    };
    this.guilds.push(guild);
    this.channels.set(channelId, { id: channelId, guildId: id, name: 'campaign', type: 0, parentId: null, overwrites: [] });
    for (const s of this.sessions) {
      if (s.shard[1] > 0 && shardOf(id, s.shard[1]) === s.shard[0]) {
        (s.guildIds as string[]).push(id);
        this.dispatch(s, 'GUILD_CREATE', this.guildPayload(guild));
      }
    }
    return guild;
  }

  /** Adds a text channel (or a public thread of `parentId`) to a guild. Returns its id. */
  addChannel(guildId: string, name: string, opts: { thread?: { parentId: string } } = {}): string {
    const id = snowflake();
    const channel: FakeChannel = { id, guildId, name, type: opts.thread ? 11 : 0, parentId: opts.thread?.parentId ?? null, overwrites: [] };
    this.channels.set(id, channel);
    const session = this.sessionOfGuild(guildId);
    if (session) this.dispatch(session, opts.thread ? 'THREAD_CREATE' : 'CHANNEL_CREATE', this.channelPayload(channel));
    return id;
  }

  /** Adds a member of every guild (before or after login; afterwards only new interactions see it). */
  addMember(id: string, username: string, roles: string[] = []): void {
    this.members.set(id, { user: user(id, username), roles });
  }

  /**
   * Denies the bot these permissions in a channel (a member overwrite, as a server admin would
   * set), or gives them back with `deny: []`. The bot's cache hears it as CHANNEL_UPDATE, unless
   * `silent` (an update the bot missed: its cache is stale, the live channel is not).
   */
  setBotChannelPermissions(channelId: string, deny: readonly PermName[], opts: { silent?: boolean } = {}): void {
    const channel = this.channels.get(channelId);
    if (!channel) throw new Error(`fake: no channel ${channelId}`);
    const bits = deny.reduce((a, n) => a | Perm[n], 0n);
    channel.overwrites = channel.overwrites.filter((o) => o.id !== this.botUser.id);
    if (bits !== 0n) channel.overwrites.push({ id: this.botUser.id, type: 1, allow: 0n, deny: bits });
    const session = opts.silent ? undefined : this.sessionOfGuild(channel.guildId);
    if (session) this.dispatch(session, channel.type === 11 ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE', this.channelPayload(channel));
  }

  /** The bot's permissions in a channel, computed as Discord does (roles, then overwrites). */
  botPermissionsIn(channelId: string): bigint {
    if (this.dmChannels.has(channelId)) return DM_PERMISSIONS;
    const channel = this.channels.get(channelId);
    if (!channel) return 0n;
    const guild = this.guild(channel.guildId);
    let perms = guild.everyonePermissions | guild.botRolePermissions;
    if (perms & Perm.Administrator) return (1n << 50n) - 1n;
    // A thread takes its parent's overwrites.
    const overwrites = channel.type === 11 && channel.parentId ? this.channels.get(channel.parentId)?.overwrites ?? [] : channel.overwrites;
    const apply = (o: { allow: bigint; deny: bigint } | undefined): void => {
      if (o) perms = (perms & ~o.deny) | o.allow;
    };
    apply(overwrites.find((o) => o.id === guild.id));
    const roles = overwrites.filter((o) => o.type === 0 && o.id === guild.botRoleId);
    apply(roles.reduce((a, o) => ({ allow: a.allow | o.allow, deny: a.deny | o.deny }), { allow: 0n, deny: 0n }));
    apply(overwrites.find((o) => o.type === 1 && o.id === this.botUser.id));
    return perms;
  }

  /** Command payloads the interactions are built from (also set by a PUT of the commands). */
  setCommands(payloads: readonly unknown[]): void {
    this.commands = payloads as CommandSchema[];
  }

  /** Make DMs to this user fail like closed DMs (403, code 50007). */
  refuseDms(userId: string, refuse = true): void {
    if (refuse) this.closedDms.add(userId);
    else this.closedDms.delete(userId);
  }

  /** The DM channel with a user (created as the bot would, if it does not exist yet). */
  dmChannelOf(userId: string): string {
    let id = [...this.dmChannels.entries()].find(([, u]) => u === userId)?.[0];
    if (!id) {
      id = snowflake();
      this.dmChannels.set(id, userId);
    }
    return id;
  }

  /** Remove a channel: later GET or posts get 404 Unknown Channel. */
  deleteChannel(channelId: string): void {
    const channel = this.channels.get(channelId);
    this.channels.delete(channelId);
    const session = channel ? this.sessionOfGuild(channel.guildId) : undefined;
    if (channel && session) this.dispatch(session, 'CHANNEL_DELETE', this.channelPayload(channel));
  }

  /**
   * The operator reset the bot's token: every REST call with the old one gets 401, the gateway
   * closes with 4004 Authentication failed, and a new IDENTIFY is refused the same way.
   */
  revokeToken(): void {
    this.tokenValid = false;
    this.closeGateway(4004, 'Authentication failed.');
  }

  /** The token works again (a new token, as far as the next test is concerned). */
  restoreToken(): void {
    this.tokenValid = true;
  }

  // ---- faults -----------------------------------------------------------------------------

  /** The next `times` requests matching method and path prefix answer with this status and body. */
  failRequests(method: string, pathPrefix: string, status: number, times: number, body: unknown = { message: 'Service Unavailable', code: 0 }): void {
    this.failures.push({ match: (m, p) => m === method && p.startsWith(pathPrefix), status, body, remaining: times, delayMs: 0, afterCreate: false });
  }

  /**
   * A failure with more control: only requests whose body matches, and with `afterCreate` the
   * message is created first and only the answer fails (a 500 after the create, as Discord
   * sometimes does), or with `delayMs` the answer comes that late (a REST timeout).
   */
  failWhen(rule: { method: string; pathPrefix: string; body?: (body: Record<string, unknown>) => boolean; status?: number; times: number; delayMs?: number; afterCreate?: boolean; drop?: boolean; answer?: unknown }): void {
    this.failures.push({
      match: (m, p, b) => m === rule.method && p.startsWith(rule.pathPrefix) && (!rule.body || rule.body((b ?? {}) as Record<string, unknown>)),
      status: rule.status ?? 0,
      body: rule.answer ?? { message: 'Internal Server Error', code: 0 },
      remaining: rule.times,
      delayMs: rule.delayMs ?? 0,
      afterCreate: rule.afterCreate ?? false,
      drop: rule.drop ?? false,
    });
  }

  /** The next `times` requests matching method and path prefix are answered normally, but `ms` later. */
  delayRequests(method: string, pathPrefix: string, ms: number, times = 1): void {
    this.failWhen({ method, pathPrefix, times, delayMs: ms });
  }

  /**
   * Rate-limit requests matching method and path prefix for `seconds` from now (a bucket that ran
   * out: every request in the window gets 429 with the time left). `global` limits every route
   * (x-ratelimit-global, scope global).
   */
  rateLimit(rule: { method?: string; pathPrefix?: string; seconds: number; global?: boolean; scope?: 'user' | 'shared' }): void {
    this.limits.push({
      match: (m, p) => (rule.method === undefined || m === rule.method) && (rule.pathPrefix === undefined || p.startsWith(rule.pathPrefix)),
      until: Date.now() + rule.seconds * 1000,
      global: rule.global ?? false,
      scope: rule.global ? 'global' : rule.scope ?? 'user',
      bucket: `bucket-${snowflake()}`,
      remaining: 0,
    });
  }

  /**
   * Drop the gateway connections abruptly (close code 1006 on the client side). The client
   * resumes; with `refuseResume` the fake answers INVALID_SESSION and the client identifies again.
   */
  dropSocket(options: { refuseResume?: boolean } = {}): void {
    this.refuseResume = options.refuseResume ?? false;
    for (const c of [...this.conns]) {
      if (c.session) c.session.ready = false;
      c.ws.terminate();
    }
  }

  /** Close every gateway connection with a server close code (4000 resumable, 4004 fatal, ...). */
  closeGateway(code: number, reason = 'closed by the fake'): void {
    for (const c of [...this.conns]) {
      if (c.session) c.session.ready = false;
      this.closes.push(code);
      c.ws.close(code, reason);
    }
  }

  /** Send op 7 RECONNECT: the client should reconnect and resume. */
  requestReconnect(): void {
    for (const c of this.conns) c.ws.send(JSON.stringify({ op: 7, d: null, s: null, t: null }));
  }

  /** Stop (or resume) acknowledging heartbeats: a zombie connection the client must notice. */
  stopAcks(stop = true): void {
    this.acking = !stop;
  }

  get connected(): boolean {
    return this.sessions.some((s) => s.ready && s.socket !== undefined);
  }

  // ---- interactions -------------------------------------------------------------------------

  /** Push a chat input command (type 2). Returns the interaction id. */
  pushCommand(args: PushCommandArgs): string {
    return this.pushApplicationCommand(args, 2);
  }

  /** Push an autocomplete request (type 4) with `focused` naming the option being typed. */
  pushAutocomplete(args: PushCommandArgs & { focused: string }): string {
    return this.pushApplicationCommand(args, 4);
  }

  /**
   * Push a button press (type 3) on a message the bot sent that carries this custom id (in a DM
   * or a channel). The presser is `userId`.
   */
  pushButton(args: { customId: string; userId: string }): string {
    const message = [...this.messages].reverse().find((m) => JSON.stringify(m.components).includes(JSON.stringify(args.customId)));
    if (!message) throw new Error(`fake: no message with a button ${args.customId}`);
    if (message.dmUserId !== undefined && message.dmUserId !== args.userId) throw new Error(`fake: only ${message.dmUserId} can see that DM`);
    const payload = this.baseInteraction(3, args.userId, message.channelId);
    payload.data = { custom_id: args.customId, component_type: 2 };
    payload.message = this.messagePayload(message);
    return this.pushInteraction(payload, 0, message);
  }

  private pushApplicationCommand(args: PushCommandArgs, type: 2 | 4): string {
    const schema = this.commands.find((c) => c.name === args.command);
    if (!schema) throw new Error(`fake: command /${args.command} is not registered`);
    const channelId = args.channelId ?? this.channelId;
    // Discord only offers a command where its contexts allow it (guild 0, bot DM 1).
    const context = this.dmChannels.has(channelId) ? 1 : 0;
    if (schema.contexts && !schema.contexts.includes(context)) {
      throw new Error(`fake: /${args.command} is not offered ${context === 1 ? 'in a DM' : 'in a server'} (contexts ${JSON.stringify(schema.contexts)})`);
    }
    const resolved: Resolved = { users: {}, members: {}, roles: {}, attachments: {} };
    const leaf = Object.entries(args.options ?? {}).map(([name, value]) => {
      const opt = this.findOption(args, name);
      return this.optionPayload(opt, value, resolved, args.focused === name);
    });
    let options: unknown[] = leaf;
    if (args.subcommand) {
      const sub = this.subcommandSchema(schema, args);
      options = [{ name: sub.name, type: 1, options: leaf }];
      if (args.group) options = [{ name: args.group, type: 2, options }];
    }
    const payload = this.baseInteraction(type, args.userId, channelId);
    payload.data = {
      id: snowflake(),
      name: schema.name,
      type: 1,
      ...(payload.guild_id ? { guild_id: payload.guild_id } : {}),
      options,
      ...(type === 2 ? { resolved } : {}),
    };
    return this.pushInteraction(payload, args.ageMs ?? 0);
  }

  private subcommandSchema(schema: CommandSchema, args: PushCommandArgs): CommandOptionSchema {
    let level = schema.options ?? [];
    if (args.group) {
      const group = level.find((o) => o.name === args.group && o.type === 2);
      if (!group) throw new Error(`fake: /${schema.name} has no group ${args.group}`);
      level = group.options ?? [];
    }
    const sub = level.find((o) => o.name === args.subcommand && o.type === 1);
    if (!sub) throw new Error(`fake: /${schema.name} has no subcommand ${args.subcommand}`);
    return sub;
  }

  private findOption(args: PushCommandArgs, name: string): CommandOptionSchema {
    const schema = this.commands.find((c) => c.name === args.command)!;
    const level = args.subcommand ? (this.subcommandSchema(schema, args).options ?? []) : (schema.options ?? []);
    const opt = level.find((o) => o.name === name);
    if (!opt) throw new Error(`fake: /${args.command} ${args.subcommand ?? ''} has no option ${name}`);
    return opt;
  }

  private optionPayload(opt: CommandOptionSchema, value: OptionValue, resolved: Resolved, focused: boolean): Record<string, unknown> {
    const base = { name: opt.name, type: opt.type, ...(focused ? { focused: true } : {}) };
    switch (opt.type) {
      case 6: {
        const m = this.members.get(String(value));
        if (!m) throw new Error(`fake: no member ${String(value)}`);
        resolved.users[m.user.id] = m.user;
        resolved.members[m.user.id] = { roles: m.roles, joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0, permissions: '0', nick: null };
        return { ...base, value: m.user.id };
      }
      case 8: {
        const role = this.guilds.flatMap((g) => this.roles(g)).find((r) => r.id === String(value));
        if (!role) throw new Error(`fake: no role ${String(value)}`);
        resolved.roles[String(role.id)] = role;
        return { ...base, value: String(role.id) };
      }
      case 11: {
        if (typeof value !== 'object') throw new Error(`fake: option ${opt.name} needs { attachment }`);
        const id = snowflake();
        const { name, content, contentType } = value.attachment;
        const data = typeof content === 'string' ? new TextEncoder().encode(content) : content;
        this.attachments.set(id, { name, data, contentType: contentType ?? 'application/octet-stream' });
        const url = `http://127.0.0.1:${this.port}/attachments/${id}/${encodeURIComponent(name)}`;
        resolved.attachments[id] = { id, filename: name, size: data.byteLength, url, proxy_url: url, content_type: contentType ?? 'application/octet-stream' };
        return { ...base, value: id };
      }
      default:
        // Autocomplete sends the partial value as typed (a string) whatever the option type.
        return { ...base, value: focused ? String(value) : value };
    }
  }

  private baseInteraction(type: number, userId: string, channelId: string): Record<string, unknown> {
    const member = this.members.get(userId);
    if (!member) throw new Error(`fake: no member ${userId}`);
    const dmUser = this.dmChannels.get(channelId);
    const common = {
      id: snowflake(),
      application_id: this.appId,
      type,
      token: `itoken-${snowflake()}`,
      version: 1,
      app_permissions: this.botPermissionsIn(channelId).toString(),
      locale: 'en-US',
      entitlements: [],
      attachment_size_limit: this.attachmentLimit,
    };
    if (dmUser !== undefined) {
      return {
        ...common,
        channel_id: channelId,
        channel: { id: channelId, type: 1, recipients: [member.user], last_message_id: null, flags: 0 },
        user: member.user,
        context: 1,
        authorizing_integration_owners: { '0': userId },
      };
    }
    const channel = this.channels.get(channelId);
    if (!channel) throw new Error(`fake: no channel ${channelId}`);
    const guild = this.guild(channel.guildId);
    return {
      ...common,
      guild_id: guild.id,
      guild: { id: guild.id, locale: 'en-US', features: [] },
      guild_locale: 'en-US',
      channel_id: channelId,
      channel: this.channelPayload(channel),
      member: {
        user: member.user,
        roles: this.memberRoles(member, guild),
        permissions: guild.everyonePermissions.toString(),
        joined_at: new Date(0).toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
        pending: false,
        nick: null,
        avatar: null,
      },
      context: 0,
      authorizing_integration_owners: { '0': guild.id },
    };
  }

  private pushInteraction(payload: Record<string, unknown>, ageMs = 0, componentMessage?: FakeMessage): string {
    const id = payload.id as string;
    this.interactions.set(id, {
      ...(componentMessage ? { componentMessage } : {}),
      id,
      token: payload.token as string,
      type: payload.type as number,
      channelId: payload.channel_id as string,
      userId: ((payload.member ?? payload) as { user: FakeUser }).user.id,
      pushedAt: Date.now() - ageMs,
      callbacks: [],
      deferredEphemeral: undefined,
      originalDone: false,
      messages: [],
      autocompleteChoices: undefined,
    });
    // Guild interactions go to the guild's shard; DM interactions to shard 0.
    const guildId = payload.guild_id as string | undefined;
    const session = guildId ? this.sessionOfGuild(guildId) : this.sessions.find((s) => s.shard[0] === 0);
    if (!session) throw new Error('fake: no gateway session to send the interaction to');
    if (this.everySession) {
      for (const s of this.sessions) if (s.shard[0] === session.shard[0] && s.shard[1] === session.shard[1] && s.socket) this.dispatch(s, 'INTERACTION_CREATE', payload);
    } else {
      this.dispatch(session, 'INTERACTION_CREATE', payload);
    }
    return id;
  }

  /** The interaction's record (throws for an unknown id). */
  interaction(id: string): InteractionRecord {
    const rec = this.interactions.get(id);
    if (!rec) throw new Error(`fake: unknown interaction ${id}`);
    return rec;
  }

  /** DMs delivered to a user (messages in their DM channel). */
  dmsTo(userId: string): FakeMessage[] {
    return this.messages.filter((m) => m.kind === 'dm' && m.dmUserId === userId);
  }

  /** Posts in a guild channel. */
  postsIn(channelId: string): FakeMessage[] {
    return this.messages.filter((m) => m.kind === 'channel' && m.channelId === channelId);
  }

  /** Resolves when `predicate` holds (checked after every request and gateway event, and every 20 ms). */
  async waitFor<T>(predicate: () => T | undefined | false, timeoutMs = WAIT_MS, what = 'condition'): Promise<T> {
    const first = predicate();
    if (first) return first;
    return new Promise<T>((resolve, reject) => {
      const check = (): void => {
        let value: T | undefined | false;
        try {
          value = predicate();
        } catch (error) {
          cleanup();
          reject(error as Error);
          return;
        }
        if (value) {
          cleanup();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`fake: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      // Also poll: the condition may depend on the bot's side (logs, database), not only on traffic.
      const poll = setInterval(check, 20);
      const cleanup = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  /** Waits until the interaction has received its final answer (a reply, an edit or a follow-up). */
  async waitForAnswer(id: string, count = 1, timeoutMs = WAIT_MS): Promise<InteractionRecord> {
    return this.waitFor(() => {
      const rec = this.interaction(id);
      return rec.messages.length >= count || rec.autocompleteChoices ? rec : undefined;
    }, timeoutMs, `the answer to interaction ${id}`);
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  async close(): Promise<void> {
    for (const c of this.conns) c.ws.terminate();
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- gateway -------------------------------------------------------------------------------

  private sessionOfGuild(guildId: string): FakeSession | undefined {
    // The newest session of the shard that owns the guild.
    return [...this.sessions].reverse().find((s) => s.guildIds.includes(guildId));
  }

  private onSocket(ws: WebSocket, path: string): void {
    this.connections += 1;
    this.connectionPaths.push(path);
    const conn: Connection = { ws, path, session: undefined };
    this.conns.add(conn);
    const send = (payload: unknown): void => ws.send(JSON.stringify(payload));
    send({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs }, s: null, t: null });
    ws.on('message', (raw) => {
      const payload = JSON.parse(raw.toString()) as { op: number; d: Record<string, unknown> | null };
      switch (payload.op) {
        case 1:
          this.heartbeats += 1;
          if (this.acking) send({ op: 11, d: null, s: null, t: null });
          break;
        case 2:
          this.onIdentify(conn, payload.d ?? {});
          break;
        case 6:
          this.onResume(conn, payload.d ?? {});
          break;
        default:
          break;
      }
      this.notify();
    });
    ws.on('close', () => {
      this.conns.delete(conn);
      if (conn.session && conn.session.socket === ws) {
        conn.session.socket = undefined;
        conn.session.ready = false;
      }
      this.notify();
    });
  }

  private closeWith(conn: Connection, code: number, reason: string): void {
    this.closes.push(code);
    conn.ws.close(code, reason);
  }

  private onIdentify(conn: Connection, d: Record<string, unknown>): void {
    if (conn.session) return this.closeWith(conn, 4005, 'Already authenticated.');
    if (d.token !== this.token || !this.tokenValid) return this.closeWith(conn, 4004, 'Authentication failed.');
    const intents = Number(d.intents);
    if (!Number.isInteger(intents) || intents < 0 || (intents & ~ALL_INTENTS) !== 0) return this.closeWith(conn, 4013, 'Invalid intent(s).');
    if ((intents & PRIVILEGED_INTENTS) !== 0) return this.closeWith(conn, 4014, 'Disallowed intent(s).');
    const shard = (Array.isArray(d.shard) ? d.shard : [0, 1]) as [number, number];
    if (shard.length !== 2 || !Number.isInteger(shard[0]) || !Number.isInteger(shard[1]) || shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1]) {
      return this.closeWith(conn, 4010, 'Invalid shard.');
    }
    this.identifies += 1;
    this.identifyLog.push({ shard, at: Date.now() });
    const guildIds = this.guilds.filter((g) => shardOf(g.id, shard[1]) === shard[0]).map((g) => g.id);
    const session: FakeSession = { id: `session-${snowflake()}`, shard, guildIds, socket: conn.ws, ready: true, seq: 0, log: [] };
    // A shard identifying again replaces its earlier session.
    const old = this.everySession ? -1 : this.sessions.findIndex((s) => s.shard[0] === shard[0] && s.shard[1] === shard[1]);
    if (old >= 0) this.sessions.splice(old, 1);
    this.sessions.push(session);
    conn.session = session;
    this.refuseResume = false;
    this.dispatch(session, 'READY', {
      v: 10,
      user: this.botUser,
      guilds: guildIds.map((id) => ({ id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.resumeUrl,
      shard,
      application: { id: this.appId, flags: 0 },
      user_settings: {},
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
    });
    for (const id of guildIds) this.dispatch(session, 'GUILD_CREATE', this.guildPayload(this.guild(id)));
  }

  private onResume(conn: Connection, d: Record<string, unknown>): void {
    const invalid = (): void => void conn.ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
    if (d.token !== this.token || !this.tokenValid) return this.closeWith(conn, 4004, 'Authentication failed.');
    if (conn.path !== '/resume') {
      // Discord wants resumes on resume_gateway_url; the plain gateway URL gets a fresh session.
      this.resumesOnWrongUrl += 1;
      return invalid();
    }
    const session = this.sessions.find((s) => s.id === d.session_id);
    if (this.refuseResume || !session) return invalid();
    this.resumes += 1;
    conn.session = session;
    session.socket = conn.ws;
    const since = typeof d.seq === 'number' ? d.seq : 0;
    for (const event of session.log.filter((e) => e.s > since)) conn.ws.send(JSON.stringify({ op: 0, ...event }));
    session.ready = true;
    session.seq += 1;
    conn.ws.send(JSON.stringify({ op: 0, s: session.seq, t: 'RESUMED', d: {} }));
  }

  /** Sends a dispatch now, or keeps it for replay on RESUME when the socket is down. */
  private dispatch(session: FakeSession, t: string, d: unknown): void {
    session.seq += 1;
    const event = { s: session.seq, t, d };
    session.log.push(event);
    if (session.socket && session.ready) session.socket.send(JSON.stringify({ op: 0, ...event }));
  }

  /** A member's roles in a guild: the bot has its managed role; the referee role maps to each guild's own. */
  private memberRoles(m: { user: FakeUser; roles: string[] }, guild: FakeGuild): string[] {
    if (m.user.id === this.botUser.id) return [guild.botRoleId];
    return m.roles.map((r) => (r === this.guilds[0]!.refereeRoleId ? guild.refereeRoleId : r));
  }

  private guild(id: string): FakeGuild {
    const g = this.guilds.find((x) => x.id === id);
    if (!g) throw new Error(`fake: no guild ${id}`);
    return g;
  }

  private channelPayload(channel: FakeChannel): Record<string, unknown> {
    return {
      id: channel.id,
      type: channel.type,
      guild_id: channel.guildId,
      name: channel.name,
      position: 0,
      permission_overwrites: channel.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() })),
      parent_id: channel.parentId,
      nsfw: false,
      topic: null,
      rate_limit_per_user: 0,
      last_message_id: null,
      flags: 0,
      ...(channel.type === 11 ? { thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date(0).toISOString(), locked: false }, owner_id: this.botUser.id, member_count: 1, message_count: 0 } : {}),
    };
  }

  private roles(guild: FakeGuild): Record<string, unknown>[] {
    const role = (id: string, name: string, position: number, permissions: bigint, managed = false): Record<string, unknown> => ({
      id, name, permissions: permissions.toString(), position, color: 0, colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false, managed, mentionable: false, flags: 0, icon: null, unicode_emoji: null,
      ...(managed ? { tags: { bot_id: this.botUser.id } } : {}),
    });
    return [
      role(guild.id, '@everyone', 0, guild.everyonePermissions),
      role(guild.refereeRoleId, 'Referees', 1, guild.everyonePermissions),
      role(guild.botRoleId, 'Valormr Bot', 2, guild.botRolePermissions, true),
    ];
  }

  private guildPayload(guild: FakeGuild): Record<string, unknown> {
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: [...this.members.values()].find((m) => !m.user.bot)?.user.id ?? this.botUser.id,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: 'en-US',
      public_updates_channel_id: null,
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
      safety_alerts_channel_id: null,
      joined_at: new Date(0).toISOString(),
      large: false,
      unavailable: false,
      member_count: this.members.size,
      roles: this.roles(guild),
      channels: [...this.channels.values()].filter((c) => c.guildId === guild.id && c.type !== 11).map((c) => {
        const { guild_id: _omit, ...rest } = this.channelPayload(c);
        return rest;
      }),
      members: [...this.members.values()].map((m) => ({
        user: m.user,
        roles: this.memberRoles(m, guild),
        joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0, pending: false, nick: null, avatar: null,
      })),
      threads: [...this.channels.values()].filter((c) => c.guildId === guild.id && c.type === 11).map((c) => this.channelPayload(c)),
      presences: [],
      voice_states: [],
      emojis: [],
      stickers: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  // ---- REST ----------------------------------------------------------------------------------

  private async onHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    const method = (req.method ?? 'GET').toUpperCase();

    // A sender that named itself (viaApi): /via/<name>/api/v10/...
    const named = /^\/via\/([^/]+)(\/.*)$/.exec(url.pathname);
    const via = named?.[1];
    const pathname = named?.[2] ?? url.pathname;
    if (pathname.startsWith('/attachments/')) {
      const id = pathname.split('/')[2] ?? '';
      const file = this.attachments.get(id);
      if (!file) return this.send(res, 404, { message: 'Not Found' });
      res.writeHead(200, { 'content-type': file.contentType });
      res.end(Buffer.from(file.data));
      return;
    }
    if (!pathname.startsWith(API_PREFIX)) return this.send(res, 404, { message: '404: Not Found', code: 0 });

    const path = decodeURIComponent(pathname.slice(API_PREFIX.length));
    const query = Object.fromEntries(url.searchParams.entries());
    let body: unknown = undefined;
    let files: RecordedFile[] = [];
    const contentType = req.headers['content-type'] ?? '';
    try {
      if (contentType.startsWith('multipart/form-data')) {
        const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
        for (const [field, value] of form.entries()) {
          if (typeof value === 'string') {
            if (field === 'payload_json') body = JSON.parse(value);
          } else {
            files.push({ field, name: value.name, contentType: value.type, data: new Uint8Array(await value.arrayBuffer()) });
          }
        }
      } else if (raw.length > 0) {
        body = JSON.parse(raw.toString('utf8'));
      }
    } catch {
      return this.send(res, 400, { message: '400: Bad Request', code: 0 });
    }
    files = files.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));

    const auth = req.headers.authorization;
    let status = 200;
    let answer: unknown = undefined;
    const headers: Record<string, string> = {};
    const interactionRoute = path.startsWith('/interactions/') || path.startsWith('/webhooks/');
    const limit = this.limits.find((l) => l.until > Date.now() && ((l.global && !interactionRoute) || (!l.global && l.match(method, path))));
    const failure = this.failures.find((f) => f.remaining > 0 && f.match(method, path, body));
    if (failure) failure.remaining -= 1;
    if (limit) {
      const left = Math.max(0, (limit.until - Date.now()) / 1000);
      status = 429;
      answer = { message: 'You are being rate limited.', retry_after: Number(left.toFixed(3)), global: limit.global, code: limit.global ? 0 : undefined };
      Object.assign(headers, {
        'retry-after': String(Math.ceil(left)),
        'x-ratelimit-scope': limit.scope,
        ...(limit.global ? { 'x-ratelimit-global': 'true' } : {
          'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': (limit.until / 1000).toFixed(3),
          'x-ratelimit-reset-after': left.toFixed(3), 'x-ratelimit-bucket': limit.bucket,
        }),
      });
    } else if (failure && !failure.afterCreate && failure.delayMs === 0) {
      status = failure.status;
      answer = failure.body;
    } else {
      if (failure && failure.delayMs > 0 && !failure.afterCreate) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
      [status, answer] = this.route(method, path, query, auth, body, files);
      if (failure?.afterCreate) {
        if (failure.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
        if (failure.status > 0) {
          status = failure.status;
          answer = failure.body;
        }
      }
      if (status >= 200 && status < 300 && this.rateLimitHeaders) {
        Object.assign(headers, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': (Date.now() / 1000 + 1).toFixed(3), 'x-ratelimit-reset-after': '1.000', 'x-ratelimit-bucket': `b-${method}-${path.split('/')[1] ?? ''}` });
      }
    }
    if (failure?.drop) {
      // The connection closes with no answer: the sender cannot know whether the work was done.
      this.calls.push({ method, path, query, auth, body, files, status: 0, at: Date.now(), abandoned: true, via });
      req.socket.destroy();
      this.notify();
      return;
    }
    if (status === 400 || status === 413) this.refusals.push({ method, path, status, answer });
    // Whether the sender is still there: a sender that gave up (a REST timeout) closed its
    // connection before this answer, but on a starved event loop its timeout and this answer's
    // delay can fire in the same turn, before this side has read the close. One turn through the
    // poll phase (setImmediate runs after it) reads the close already sent; the end of the
    // connection's reading side is the sign (an HTTP client never half-closes while it waits).
    await new Promise((resolve) => setImmediate(resolve));
    const abandoned = res.destroyed || req.socket.destroyed || req.socket.readableEnded;
    this.calls.push({ method, path, query, auth, body, files, status, at: Date.now(), abandoned, via });
    if (!res.destroyed) this.send(res, status, answer, headers);
    this.notify();
  }

  private send(res: ServerResponse, status: number, answer: unknown, headers: Record<string, string> = {}): void {
    if (status === 204 || answer === undefined) {
      res.writeHead(status === 200 ? 204 : status, headers);
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(answer));
  }

  private route(method: string, path: string, query: Record<string, string>, auth: string | undefined, body: unknown, files: RecordedFile[]): [number, unknown] {
    const parts = path.split('/').filter(Boolean);
    const isBot = auth === `Bot ${this.token}` && this.tokenValid;
    const unauthorized: [number, unknown] = [401, { message: '401: Unauthorized', code: 0 }];
    const data = (body ?? {}) as Record<string, unknown>;

    // Interaction endpoints authenticate with the interaction token, not the bot token.
    if (method === 'POST' && parts[0] === 'interactions' && parts[3] === 'callback') {
      return this.onCallback(parts[1]!, parts[2]!, data, files);
    }
    if (parts[0] === 'webhooks' && parts[1] === this.appId) {
      return this.onWebhook(method, parts[2]!, parts.slice(3), query, data, files);
    }

    if (!isBot) return unauthorized;
    if (method === 'GET' && path === '/gateway/bot') {
      return [200, { url: this.gatewayUrl, shards: this.recommendedShards, session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: this.maxConcurrency } }];
    }
    if (method === 'GET' && path === '/gateway') return [200, { url: this.gatewayUrl }];
    if (method === 'GET' && path === '/users/@me') return [200, this.botUser];
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(data.recipient_id);
      const member = this.members.get(recipient);
      if (!member) return [400, { message: 'Invalid Recipient(s)', code: 50033 }];
      return [200, { id: this.dmChannelOf(recipient), type: 1, last_message_id: null, flags: 0, recipients: [member.user] }];
    }
    if (parts[0] === 'channels' && parts.length === 2 && method === 'GET') {
      const channel = this.channels.get(parts[1]!);
      if (channel) {
        if ((this.botPermissionsIn(channel.id) & Perm.ViewChannel) === 0n) return [403, { message: 'Missing Access', code: 50001 }];
        return [200, this.channelPayload(channel)];
      }
      const dmUser = this.dmChannels.get(parts[1]!);
      if (dmUser) return [200, { id: parts[1], type: 1, last_message_id: null, flags: 0, recipients: [this.members.get(dmUser)!.user] }];
      return [404, { message: 'Unknown Channel', code: 10003 }];
    }
    if (parts[0] === 'guilds' && parts.length === 3 && parts[2] === 'roles' && method === 'GET') {
      const guild = this.guilds.find((g) => g.id === parts[1]);
      return guild ? [200, this.roles(guild)] : [404, { message: 'Unknown Guild', code: 10004 }];
    }
    if (parts[0] === 'guilds' && parts.length === 4 && parts[2] === 'members' && method === 'GET') {
      const guild = this.guilds.find((g) => g.id === parts[1]);
      if (!guild) return [404, { message: 'Unknown Guild', code: 10004 }];
      const member = this.members.get(parts[3]!);
      if (!member) return [404, { message: 'Unknown Member', code: 10007 }];
      return [200, { user: member.user, roles: this.memberRoles(member, guild), joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0, pending: false, nick: null, avatar: null }];
    }
    if (parts[0] === 'channels' && parts[2] === 'messages' && parts.length === 3 && method === 'POST') {
      return this.onChannelMessage(parts[1]!, data, files);
    }
    if (parts[0] === 'channels' && parts[2] === 'messages' && parts.length === 4 && method === 'PATCH') {
      // A bot edits only its own messages (channel posts and DMs it sent).
      const message = this.messages.find((m) => m.id === parts[3] && m.channelId === parts[1] && m.kind !== 'interaction');
      if (!message) return [404, { message: 'Unknown Message', code: 10008 }];
      const invalid = this.validateMessage(data, files, { edit: true });
      if (invalid) return invalid;
      this.applyEdit(message, data, files);
      return [200, this.messagePayload(message)];
    }
    if (method === 'PUT' && parts[0] === 'applications' && parts[1] === this.appId) {
      const guildId = parts[2] === 'guilds' && parts[4] === 'commands' ? parts[3] : undefined;
      const isGlobal = parts[2] === 'commands' && parts.length === 3;
      if (!isGlobal && !(guildId && this.guilds.some((g) => g.id === guildId))) return [404, { message: 'Unknown Guild', code: 10004 }];
      if (!Array.isArray(body)) return formError('_root', 'BASE_TYPE_ARRAY', 'Must be an array.');
      const problems = validateCommands(body as CommandSchema[]);
      if (problems) return problems;
      // Contexts apply to global commands only: a guild command exists in its guild alone.
      const list = (body as CommandSchema[]).map((c) => (guildId ? { ...c, contexts: [0] } : c));
      this.setCommands(list);
      return [200, list.map((c) => ({ ...c, id: snowflake(), application_id: this.appId, version: snowflake(), ...(guildId ? { guild_id: guildId } : {}) }))];
    }
    return [404, { message: '404: Not Found', code: 0 }];
  }

  private onChannelMessage(channelId: string, data: Record<string, unknown>, files: RecordedFile[]): [number, unknown] {
    const dmUser = this.dmChannels.get(channelId);
    if (dmUser !== undefined && this.closedDms.has(dmUser)) return [403, { message: 'Cannot send messages to this user', code: 50007 }];
    const channel = this.channels.get(channelId);
    if (dmUser === undefined && !channel) return [404, { message: 'Unknown Channel', code: 10003 }];
    if (channel) {
      const perms = this.botPermissionsIn(channelId);
      if ((perms & Perm.ViewChannel) === 0n) return [403, { message: 'Missing Access', code: 50001 }];
      const send = channel.type === 11 ? Perm.SendMessagesInThreads : Perm.SendMessages;
      if ((perms & send) === 0n) return [403, { message: 'Missing Permissions', code: 50013 }];
      if (files.length > 0 && (perms & Perm.AttachFiles) === 0n) return [403, { message: 'Missing Permissions', code: 50013 }];
      if (Array.isArray(data.embeds) && data.embeds.length > 0 && (perms & Perm.EmbedLinks) === 0n) return [403, { message: 'Missing Permissions', code: 50013 }];
    }
    const invalid = this.validateMessage(data, files, { nonce: true });
    if (invalid) return invalid;
    const nonce = data.nonce === undefined ? undefined : String(data.nonce);
    const key = nonce !== undefined ? `${channelId}:${nonce}` : undefined;
    if (key && data.enforce_nonce === true) {
      const seen = this.nonces.get(key);
      if (seen && Date.now() - seen.at < NONCE_WINDOW_MS) return [200, this.messagePayload(seen.message)];
    }
    const message = this.store({ channelId, guildId: channel?.guildId, dmUserId: dmUser, interactionId: undefined, ephemeral: false, kind: dmUser ? 'dm' : 'channel', nonce }, data, files);
    if (key) this.nonces.set(key, { message, at: Date.now() });
    return [200, this.messagePayload(message)];
  }

  /** What Discord refuses in a message body (create or edit). */
  private validateMessage(data: Record<string, unknown>, files: RecordedFile[], opts: { nonce?: boolean; edit?: boolean } = {}): [number, unknown] | undefined {
    if (files.some((f) => f.data.byteLength > this.attachmentLimit)) return [413, { message: 'Request entity too large', code: 40005 }];
    const content = data.content;
    if (content !== undefined && content !== null && typeof content !== 'string') return formError('content', 'BASE_TYPE_STRING', 'Must be a string.');
    if (typeof content === 'string' && content.length > 2000) return formError('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
    const embeds = data.embeds;
    if (embeds !== undefined && embeds !== null && !Array.isArray(embeds)) return formError('embeds', 'BASE_TYPE_ARRAY', 'Must be an array.');
    const embedProblem = validateEmbeds((embeds ?? []) as Record<string, unknown>[]);
    if (embedProblem) return embedProblem;
    const components = data.components;
    if (components !== undefined && components !== null && !Array.isArray(components)) return formError('components', 'BASE_TYPE_ARRAY', 'Must be an array.');
    const componentProblem = validateComponents((components ?? []) as Record<string, unknown>[]);
    if (componentProblem) return componentProblem;
    // Attachments: every new upload referenced by id must have its file part, and every file
    // part must be referenced when the list is given.
    const attachments = data.attachments;
    if (attachments !== undefined && attachments !== null) {
      if (!Array.isArray(attachments)) return formError('attachments', 'BASE_TYPE_ARRAY', 'Must be an array.');
      const fields = new Set(files.map((f) => f.field));
      for (const [i, a] of (attachments as Record<string, unknown>[]).entries()) {
        const id = String(a.id);
        if (!opts.edit && !fields.has(`files[${id}]`)) return formError(`attachments.${i}.id`, 'ATTACHMENT_NOT_FOUND', `Attachment ${id} has no file part files[${id}].`);
        if (typeof a.filename === 'string' && a.filename.length > 1024) return formError(`attachments.${i}.filename`, 'BASE_TYPE_MAX_LENGTH', 'Must be 1024 or fewer in length.');
      }
      const referenced = new Set((attachments as Record<string, unknown>[]).map((a) => `files[${String(a.id)}]`));
      const stray = files.find((f) => !referenced.has(f.field));
      if (stray) return formError('attachments', 'ATTACHMENT_NOT_REFERENCED', `The file part ${stray.field} is not in attachments.`);
    }
    if (files.length > 10) return formError('files', 'BASE_TYPE_MAX_LENGTH', 'At most 10 files.');
    const mentionsProblem = validateAllowedMentions(data.allowed_mentions);
    if (mentionsProblem) return mentionsProblem;
    if (opts.nonce && data.nonce !== undefined) {
      const n = data.nonce;
      if (!(typeof n === 'number' && Number.isInteger(n)) && !(typeof n === 'string' && n.length <= 25)) return formError('nonce', 'BASE_TYPE_MAX_LENGTH', 'A nonce is an integer or a string of at most 25 characters.');
    }
    if (!opts.edit) {
      const empty = !(typeof content === 'string' && content.length > 0) && (embeds ?? []).length === 0 && (components ?? []).length === 0
        && files.length === 0 && !(Array.isArray(data.sticker_ids) && data.sticker_ids.length > 0) && data.poll === undefined;
      if (empty) return [400, { message: 'Cannot send an empty message', code: 50006 }];
    }
    return undefined;
  }

  private onCallback(id: string, token: string, data: Record<string, unknown>, files: RecordedFile[]): [number, unknown] {
    const rec = this.interactions.get(id);
    if (!rec || rec.token !== token) return [404, { message: 'Unknown interaction', code: 10062 }];
    if (rec.callbacks.length > 0) return [400, { message: 'Interaction has already been acknowledged.', code: 40060 }];
    if (Date.now() - rec.pushedAt > ANSWER_WINDOW_MS) return [404, { message: 'Unknown interaction', code: 10062 }];
    const type = data.type as number;
    if (!(CALLBACKS_FOR[rec.type] ?? []).includes(type)) return formError('type', 'INTERACTION_RESPONSE_TYPE_INVALID', `Callback type ${type} is not valid for an interaction of type ${rec.type}.`);
    const inner = (data.data ?? {}) as Record<string, unknown>;
    const ephemeral = ((Number(inner.flags ?? 0)) & EPHEMERAL) !== 0;
    switch (type) {
      case 4:
      case 7: {
        const invalid = this.validateMessage(inner, files, { edit: type === 7 });
        if (invalid) return invalid;
        rec.callbacks.push({ type, data: inner, at: Date.now() });
        rec.originalDone = true;
        if (type === 7 && rec.componentMessage) {
          // UPDATE_MESSAGE edits the message whose component was used; it is the interaction's @original.
          this.applyEdit(rec.componentMessage, inner, files);
          rec.messages.unshift(rec.componentMessage);
          break;
        }
        rec.messages.push(this.store({ channelId: rec.channelId, guildId: this.channels.get(rec.channelId)?.guildId, dmUserId: undefined, interactionId: id, ephemeral, kind: 'interaction', nonce: undefined }, inner, files));
        break;
      }
      case 8: {
        const choices = inner.choices;
        if (!Array.isArray(choices) || choices.length > 25) return formError('data.choices', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
        for (const [i, c] of (choices as { name?: unknown; value?: unknown }[]).entries()) {
          if (typeof c.name !== 'string' || c.name.length < 1 || c.name.length > 100) return formError(`data.choices.${i}.name`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
          if (typeof c.value === 'string' && (c.value.length < 1 || c.value.length > 100)) return formError(`data.choices.${i}.value`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
        }
        rec.callbacks.push({ type, data: inner, at: Date.now() });
        rec.autocompleteChoices = choices as { name: string; value: string }[];
        break;
      }
      default:
        rec.callbacks.push({ type, data: inner, at: Date.now() });
        if (type === 5) rec.deferredEphemeral = ephemeral;
        if (type === 6 && rec.componentMessage) {
          // DEFERRED_UPDATE_MESSAGE: @original is the component's message, edited later.
          rec.originalDone = true;
          rec.messages.unshift(rec.componentMessage);
        } else if (type === 6) rec.deferredEphemeral = ephemeral;
        break;
    }
    return [204, undefined];
  }

  /** Applies an edit (content, embeds, components, files, allowed_mentions) to a stored message. */
  private applyEdit(existing: FakeMessage, data: Record<string, unknown>, files: RecordedFile[]): void {
    if (typeof data.content === 'string') existing.content = data.content;
    if (Array.isArray(data.embeds)) existing.embeds = data.embeds;
    if (Array.isArray(data.components)) existing.components = data.components;
    if (files.length > 0) existing.files = files;
    if (data.allowed_mentions !== undefined) existing.allowedMentions = data.allowed_mentions;
    existing.pinged = this.pings(existing.content, existing.allowedMentions, existing.guildId);
  }

  private onWebhook(method: string, token: string, rest: string[], _query: Record<string, string>, data: Record<string, unknown>, files: RecordedFile[]): [number, unknown] {
    const rec = [...this.interactions.values()].find((r) => r.token === token);
    if (!rec) return [401, { message: 'Invalid Webhook Token', code: 50027 }];
    if (rec.callbacks.length === 0) return [404, { message: 'Unknown Webhook', code: 10015 }];
    const guildId = this.channels.get(rec.channelId)?.guildId;
    const original = rest[0] === 'messages' && rest[1] === '@original';
    if (original && method === 'PATCH') {
      const existing = rec.messages[0];
      if (existing && rec.originalDone) {
        const invalid = this.validateMessage(data, files, { edit: true });
        if (invalid) return invalid;
        this.applyEdit(existing, data, files);
        return [200, this.messagePayload(existing)];
      }
      if (rec.deferredEphemeral === undefined) return [404, { message: 'Unknown Message', code: 10008 }];
      // Editing the deferral's "thinking" message creates the answer: it must not be empty.
      const invalid = this.validateMessage(data, files);
      if (invalid) return invalid;
      rec.originalDone = true;
      const message = this.store({ channelId: rec.channelId, guildId, dmUserId: undefined, interactionId: rec.id, ephemeral: rec.deferredEphemeral, kind: 'interaction', nonce: undefined }, data, files);
      rec.messages.unshift(message);
      return [200, this.messagePayload(message)];
    }
    if (original && method === 'DELETE') {
      if (rec.originalDone && rec.messages[0]) {
        const first = rec.messages.shift()!;
        this.messages.splice(this.messages.indexOf(first), 1);
      }
      rec.originalDone = true;
      return [204, undefined];
    }
    if (rest.length === 0 && method === 'POST') {
      const invalid = this.validateMessage(data, files);
      if (invalid) return invalid;
      // The first follow-up after a deferral replaces the "thinking" message and keeps its visibility.
      let ephemeral = ((Number(data.flags ?? 0)) & EPHEMERAL) !== 0;
      if (!rec.originalDone && rec.deferredEphemeral !== undefined) {
        ephemeral = rec.deferredEphemeral;
        rec.originalDone = true;
      }
      const message = this.store({ channelId: rec.channelId, guildId, dmUserId: undefined, interactionId: rec.id, ephemeral, kind: 'interaction', nonce: undefined }, data, files);
      rec.messages.push(message);
      return [200, this.messagePayload(message)];
    }
    return [404, { message: '404: Not Found', code: 0 }];
  }

  /** Who a message pings, by Discord's rules: without allowed_mentions every mention pings. */
  private pings(content: string, allowed: unknown, guildId: string | undefined): Pinged {
    const users = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]!);
    const roles = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1]!);
    const everyone = /@(everyone|here)\b/.test(content);
    const a = (allowed ?? { parse: ['users', 'roles', 'everyone'] }) as { parse?: string[]; users?: string[]; roles?: string[] };
    const parse = a.parse ?? [];
    const canEveryone = guildId === undefined ? false : true;
    return {
      users: [...new Set(users.filter((u) => parse.includes('users') || (a.users ?? []).includes(u)))],
      roles: [...new Set(roles.filter((r) => parse.includes('roles') || (a.roles ?? []).includes(r)))],
      everyone: canEveryone && everyone && parse.includes('everyone'),
    };
  }

  private store(meta: Pick<FakeMessage, 'channelId' | 'guildId' | 'dmUserId' | 'interactionId' | 'ephemeral' | 'kind' | 'nonce'>, data: Record<string, unknown>, files: RecordedFile[]): FakeMessage {
    const content = typeof data.content === 'string' ? data.content : '';
    const message: FakeMessage = {
      ...meta,
      id: snowflake(),
      content,
      components: Array.isArray(data.components) ? data.components : [],
      embeds: Array.isArray(data.embeds) ? data.embeds : [],
      files,
      at: Date.now(),
      allowedMentions: data.allowed_mentions,
      pinged: this.pings(content, data.allowed_mentions, meta.guildId),
    };
    this.messages.push(message);
    return message;
  }

  private messagePayload(message: FakeMessage): Record<string, unknown> {
    return {
      id: message.id,
      type: message.interactionId ? 20 : 0,
      channel_id: message.channelId,
      ...(message.guildId ? { guild_id: message.guildId } : {}),
      author: this.botUser,
      content: message.content,
      timestamp: new Date(message.at).toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: message.pinged.everyone,
      mentions: message.pinged.users.map((id) => this.members.get(id)?.user).filter(Boolean),
      mention_roles: message.pinged.roles,
      attachments: message.files.map((f, i) => ({ id: String(i), filename: f.name, size: f.data.byteLength, url: `http://127.0.0.1:${this.port}/attachments/x/${f.name}`, proxy_url: '', content_type: f.contentType })),
      embeds: message.embeds,
      pinned: false,
      flags: message.ephemeral ? EPHEMERAL : 0,
      components: message.components,
      ...(message.nonce !== undefined ? { nonce: message.nonce } : {}),
      ...(message.interactionId ? { webhook_id: this.appId, application_id: this.appId } : {}),
    };
  }
}

// ---- validation, from Discord's documentation ------------------------------------------------

function validateEmbeds(embeds: readonly Record<string, unknown>[]): [number, unknown] | undefined {
  if (embeds.length > 10) return formError('embeds', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  let total = 0;
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  for (const [i, e] of embeds.entries()) {
    const limits: [string, string, number][] = [
      ['title', text(e.title), 256],
      ['description', text(e.description), 4096],
      ['footer.text', text((e.footer as Record<string, unknown> | undefined)?.text), 2048],
      ['author.name', text((e.author as Record<string, unknown> | undefined)?.name), 256],
    ];
    for (const [field, value, max] of limits) {
      if (value.length > max) return formError(`embeds.${i}.${field}`, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
      total += value.length;
    }
    const fields = Array.isArray(e.fields) ? (e.fields as Record<string, unknown>[]) : [];
    if (fields.length > 25) return formError(`embeds.${i}.fields`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    for (const [j, f] of fields.entries()) {
      const name = text(f.name);
      const value = text(f.value);
      if (name.length < 1 || name.length > 256) return formError(`embeds.${i}.fields.${j}.name`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 256 in length.');
      if (value.length < 1 || value.length > 1024) return formError(`embeds.${i}.fields.${j}.value`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 1024 in length.');
      total += name.length + value.length;
    }
  }
  if (total > 6000) return formError('embeds', 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000.');
  return undefined;
}

function validateComponents(rows: readonly Record<string, unknown>[]): [number, unknown] | undefined {
  if (rows.length > 5) return formError('components', 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
  const ids = new Set<string>();
  for (const [i, row] of rows.entries()) {
    if (row.type !== 1) return formError(`components.${i}.type`, 'COMPONENT_LAYOUT_INVALID', 'Top-level components must be action rows.');
    const inner = Array.isArray(row.components) ? (row.components as Record<string, unknown>[]) : [];
    if (inner.length < 1 || inner.length > 5) return formError(`components.${i}.components`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
    for (const [j, c] of inner.entries()) {
      const at = `components.${i}.components.${j}`;
      if (c.type !== 2) continue;
      const style = Number(c.style);
      if (!(style >= 1 && style <= 6)) return formError(`${at}.style`, 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4, 5, 6).');
      if (typeof c.label === 'string' && c.label.length > 80) return formError(`${at}.label`, 'BASE_TYPE_MAX_LENGTH', 'Must be 80 or fewer in length.');
      if (style === 5) {
        if (typeof c.url !== 'string' || c.custom_id !== undefined) return formError(at, 'COMPONENT_INVALID', 'A link button has a url and no custom_id.');
        continue;
      }
      if (style === 6) continue;
      const id = c.custom_id;
      if (typeof id !== 'string' || id.length < 1 || id.length > 100) return formError(`${at}.custom_id`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      if (ids.has(id)) return formError(`${at}.custom_id`, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated.');
      ids.add(id);
    }
  }
  return undefined;
}

function validateAllowedMentions(value: unknown): [number, unknown] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return formError('allowed_mentions', 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType.');
  const a = value as { parse?: unknown; users?: unknown; roles?: unknown; replied_user?: unknown };
  const parse = a.parse === undefined ? [] : a.parse;
  if (!Array.isArray(parse) || parse.some((p) => !['users', 'roles', 'everyone'].includes(String(p)))) {
    return formError('allowed_mentions.parse', 'BASE_TYPE_CHOICES', 'Value must be one of ("roles", "users", "everyone").');
  }
  for (const key of ['users', 'roles'] as const) {
    const list = a[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || !/^\d{1,20}$/.test(x))) return formError(`allowed_mentions.${key}`, 'BASE_TYPE_ARRAY', 'Must be an array of snowflakes.');
    if (list.length > 100) return formError(`allowed_mentions.${key}`, 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
    if (list.length > 0 && parse.includes(key)) return formError('allowed_mentions', 'MENTIONS_PARSE_AND_LIST', `parse:["${key}"] and ${key}: [...] are mutually exclusive.`);
  }
  return undefined;
}

const COMMAND_NAME = /^[-_'\p{Ll}\p{Lo}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Discord's checks on a bulk command overwrite (chat input commands). */
function validateCommands(list: readonly CommandSchema[]): [number, unknown] | undefined {
  if (list.length > 100) return formError('_root', 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
  const names = new Set<string>();
  for (const [i, c] of list.entries()) {
    const at = `${i}`;
    if ((c.type ?? 1) !== 1) continue;
    if (typeof c.name !== 'string' || !COMMAND_NAME.test(c.name)) return formError(`${at}.name`, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid.');
    if (names.has(c.name)) return formError(`${at}.name`, 'APPLICATION_COMMANDS_DUPLICATE_NAME', `Application command names must be unique (${c.name}).`);
    names.add(c.name);
    if (typeof c.description !== 'string' || c.description.length < 1 || c.description.length > 100) return formError(`${at}.description`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    if (c.contexts !== undefined && c.contexts !== null) {
      if (!Array.isArray(c.contexts) || c.contexts.length === 0 || c.contexts.some((x) => ![0, 1, 2].includes(x))) return formError(`${at}.contexts`, 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1, 2).');
    }
    if (c.integration_types !== undefined && (!Array.isArray(c.integration_types) || c.integration_types.some((x) => ![0, 1].includes(x)))) return formError(`${at}.integration_types`, 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
    const problem = validateOptions(c.options ?? [], `${at}.options`, 0);
    if (problem) return problem;
    if (commandCharacters(c.name, c.description, c.options ?? []) > 4000) return formError(at, 'APPLICATION_COMMAND_TOO_LARGE', 'Command exceeds maximum size (4000).');
  }
  return undefined;
}

function validateOptions(options: readonly CommandOptionSchema[], at: string, depth: number): [number, unknown] | undefined {
  if (options.length > 25) return formError(at, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  const nested = options.filter((o) => o.type === 1 || o.type === 2).length;
  if (nested > 0 && nested !== options.length) return formError(at, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Sub-command and sub-command group option types are mutually exclusive to all other types.');
  const names = new Set<string>();
  let optional = false;
  for (const [i, o] of options.entries()) {
    const here = `${at}.${i}`;
    if (typeof o.name !== 'string' || !COMMAND_NAME.test(o.name)) return formError(`${here}.name`, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid.');
    if (names.has(o.name)) return formError(`${here}.name`, 'APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME', 'Option names must be unique.');
    names.add(o.name);
    if (typeof o.description !== 'string' || o.description.length < 1 || o.description.length > 100) return formError(`${here}.description`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    if (!Number.isInteger(o.type) || o.type < 1 || o.type > 11) return formError(`${here}.type`, 'BASE_TYPE_CHOICES', 'Value must be one of (1..11).');
    if (o.type === 2) {
      if (depth > 0) return formError(`${here}.type`, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A group can only be at the top level.');
      if ((o.options ?? []).some((s) => s.type !== 1)) return formError(`${here}.options`, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A group holds only sub-commands.');
    }
    if (o.type === 1 && (o.options ?? []).some((s) => s.type === 1 || s.type === 2)) return formError(`${here}.options`, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A sub-command cannot hold sub-commands.');
    if (o.type === 1 || o.type === 2) {
      const inner = validateOptions(o.options ?? [], `${here}.options`, depth + 1);
      if (inner) return inner;
      continue;
    }
    if (o.required && optional) return formError(`${here}.required`, 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options.');
    if (!o.required) optional = true;
    const choices = o.choices ?? [];
    if (choices.length > 25) return formError(`${here}.choices`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    if (choices.length > 0 && ![3, 4, 10].includes(o.type)) return formError(`${here}.choices`, 'APPLICATION_COMMAND_OPTION_CHOICES_INVALID', 'Only string, integer and number options take choices.');
    if (choices.length > 0 && o.autocomplete) return formError(`${here}.autocomplete`, 'APPLICATION_COMMAND_AUTOCOMPLETE_INVALID', 'Autocomplete cannot be set with choices.');
    for (const [j, ch] of choices.entries()) {
      if (typeof ch.name !== 'string' || ch.name.length < 1 || ch.name.length > 100) return formError(`${here}.choices.${j}.name`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      if (o.type === 3 && (typeof ch.value !== 'string' || ch.value.length < 1 || ch.value.length > 100)) return formError(`${here}.choices.${j}.value`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      if (o.type !== 3 && typeof ch.value !== 'number') return formError(`${here}.choices.${j}.value`, 'NUMBER_TYPE_COERCE', 'Value is not a number.');
    }
    if ((o.min_value !== undefined || o.max_value !== undefined) && ![4, 10].includes(o.type)) return formError(`${here}.min_value`, 'APPLICATION_COMMAND_OPTION_INVALID', 'min_value and max_value are for number options.');
    if ((o.min_length !== undefined || o.max_length !== undefined) && o.type !== 3) return formError(`${here}.min_length`, 'APPLICATION_COMMAND_OPTION_INVALID', 'min_length and max_length are for string options.');
    if (o.max_length !== undefined && (o.max_length < 1 || o.max_length > 6000)) return formError(`${here}.max_length`, 'NUMBER_TYPE_MAX', 'Must be between 1 and 6000.');
  }
  return undefined;
}

function commandCharacters(name: string, description: string | undefined, options: readonly CommandOptionSchema[]): number {
  let total = name.length + (description ?? '').length;
  for (const o of options) {
    total += commandCharacters(o.name, o.description, o.options ?? []);
    for (const c of o.choices ?? []) total += c.name.length + String(c.value).length;
  }
  return total;
}
