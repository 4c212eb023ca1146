/**
 * A small fake Discord on loopback, good enough for the real discord.js Client to log in, receive
 * interactions and answer them, send DMs and channel posts, and reconnect.
 *
 * - REST under http://127.0.0.1:PORT/api/v10 (pass `fake.restApi` as the client's `rest.api`):
 *   GET /gateway/bot, interaction callbacks, interaction webhooks (@original and follow-ups),
 *   DM channel creation, channel messages (JSON or multipart with files), GET /channels/:id,
 *   command registration (PUT guild and global). Every call is recorded in `calls`.
 * - Gateway over ws on the same port: HELLO, heartbeat ACK, IDENTIFY -> READY + full GUILD_CREATE,
 *   RESUME with replay of missed dispatches (or INVALID_SESSION when told to refuse resumes).
 * - Interactions are built from the command payloads the bot registered (or `setCommands`), so
 *   option types come from the real builders.
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
}

export interface FakeUser {
  readonly id: string;
  readonly username: string;
  readonly global_name: string | null;
  readonly discriminator: string;
  readonly avatar: null;
  readonly bot?: boolean;
}

/** A message as the fake stored it (a channel post, a DM, or an interaction answer). */
export interface FakeMessage {
  readonly id: string;
  readonly channelId: string;
  /** For a DM channel: the recipient. */
  readonly dmUserId: string | undefined;
  readonly interactionId: string | undefined;
  readonly ephemeral: boolean;
  content: string;
  components: unknown[];
  files: RecordedFile[];
  readonly kind: 'channel' | 'dm' | 'interaction';
  readonly at: number;
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
  options?: CommandOptionSchema[];
}

interface CommandSchema {
  name: string;
  options?: CommandOptionSchema[];
}

export interface PushCommandArgs {
  readonly command: string;
  readonly subcommand?: string;
  readonly group?: string;
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly userId: string;
  /** For autocomplete: the option being typed. */
  readonly focused?: string;
  readonly channelId?: string;
  /** Pretend the interaction was created this long ago (over 3,000 ms: Discord refuses the answer). */
  readonly ageMs?: number;
}

export interface FakeDiscordOptions {
  readonly token?: string;
  /** HELLO's heartbeat interval (Discord sends about 41 s; lower it to see heartbeats in a test). */
  readonly heartbeatIntervalMs?: number;
  /** Extra members besides the default cast. */
  readonly users?: readonly { id: string; username: string; roles?: string[] }[];
}

let counter = 0n;
/** A real-looking snowflake: time-ordered, unique in the process. */
export function snowflake(): string {
  counter += 1n;
  return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) + (counter % 4096n)).toString();
}

function user(id: string, username: string, bot = false): FakeUser {
  return { id, username, global_name: username, discriminator: '0', avatar: null, ...(bot ? { bot: true } : {}) };
}

const ALL_PERMISSIONS = '2251799813685247';

export class FakeDiscord {
  readonly token: string;
  readonly appId = snowflake();
  readonly guildId = snowflake();
  readonly channelId = snowflake();
  readonly otherChannelId = snowflake();
  readonly refereeRoleId = snowflake();
  readonly botUser: FakeUser = user(snowflake(), 'Valormr Bot', true);
  readonly members = new Map<string, { user: FakeUser; roles: string[] }>();

  readonly calls: RecordedCall[] = [];
  readonly messages: FakeMessage[] = [];
  readonly interactions = new Map<string, InteractionRecord>();
  identifies = 0;
  resumes = 0;
  /** Heartbeats received (each one is ACKed). */
  heartbeats = 0;
  /** Number of gateway connections opened so far. */
  connections = 0;

  private readonly server: Server;
  private readonly wss: WebSocketServer;
  private socket: WebSocket | undefined;
  private socketReady = false;
  private sessionId: string | undefined;
  private seq = 0;
  private readonly dispatchLog: { s: number; t: string; d: unknown }[] = [];
  private refuseResume = false;
  private readonly closedDms = new Set<string>();
  private readonly dmChannels = new Map<string, string>(); // channel id -> user id
  private readonly channels = new Map<string, { id: string; name: string }>();
  private readonly attachments = new Map<string, { name: string; data: Uint8Array; contentType: string }>();
  private commands: CommandSchema[] = [];
  private failures: { match: (method: string, path: string) => boolean; status: number; body: unknown; remaining: number; delayMs: number }[] = [];
  private readonly waiters = new Set<() => void>();
  private port = 0;
  private readonly heartbeatIntervalMs: number;

  private constructor(options: FakeDiscordOptions) {
    this.token = options.token ?? 'fake-token.for-tests.only';
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 41_250;
    for (const u of options.users ?? []) this.members.set(u.id, { user: user(u.id, u.username), roles: u.roles ?? [] });
    this.members.set(this.botUser.id, { user: this.botUser, roles: [] });
    this.channels.set(this.channelId, { id: this.channelId, name: 'campaign' });
    this.channels.set(this.otherChannelId, { id: this.otherChannelId, name: 'general' });
    this.server = createServer((req, res) => void this.onHttp(req, res));
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (req, socket, head) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
    });
  }

  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** Base URL for the client's `rest.api` option. */
  get restApi(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  private get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }

  /** Adds a guild member (before or after the bot logged in; afterwards only new interactions see it). */
  addMember(id: string, username: string, roles: string[] = []): void {
    this.members.set(id, { user: user(id, username), roles });
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

  /** Remove a channel: later GET or posts get 404 Unknown Channel. */
  deleteChannel(channelId: string): void {
    this.channels.delete(channelId);
  }

  /** The next `times` requests matching method and path prefix answer with this status and body. */
  failRequests(method: string, pathPrefix: string, status: number, times: number, body: unknown = { message: 'Service Unavailable', code: 0 }): void {
    this.failures.push({ match: (m, p) => m === method && p.startsWith(pathPrefix), status, body, remaining: times, delayMs: 0 });
  }

  /** The next `times` requests matching method and path prefix are answered normally, but `ms` later. */
  delayRequests(method: string, pathPrefix: string, ms: number, times = 1): void {
    this.failures.push({ match: (m, p) => m === method && p.startsWith(pathPrefix), status: 0, body: undefined, remaining: times, delayMs: ms });
  }

  /**
   * Drop the gateway connection abruptly (close code 1006 on the client side). The client
   * resumes; with `refuseResume` the fake answers INVALID_SESSION and the client identifies again.
   */
  dropSocket(options: { refuseResume?: boolean } = {}): void {
    this.refuseResume = options.refuseResume ?? false;
    this.socketReady = false;
    this.socket?.terminate();
    this.socket = undefined;
  }

  get connected(): boolean {
    return this.socketReady;
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
    return this.pushInteraction(payload);
  }

  private pushApplicationCommand(args: PushCommandArgs, type: 2 | 4): string {
    const schema = this.commands.find((c) => c.name === args.command);
    if (!schema) throw new Error(`fake: command /${args.command} is not registered`);
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
    const payload = this.baseInteraction(type, args.userId, args.channelId ?? this.channelId);
    payload.data = {
      id: snowflake(),
      name: schema.name,
      type: 1,
      ...(payload.guild_id ? { guild_id: this.guildId } : {}),
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

  private optionPayload(
    opt: CommandOptionSchema,
    value: OptionValue,
    resolved: Resolved,
    focused: boolean,
  ): Record<string, unknown> {
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
        const role = this.roles().find((r) => r.id === String(value));
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
      app_permissions: ALL_PERMISSIONS,
      locale: 'en-US',
      entitlements: [],
      attachment_size_limit: 10 * 1024 * 1024,
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
    return {
      ...common,
      guild_id: this.guildId,
      guild_locale: 'en-US',
      channel_id: channelId,
      channel: this.channelPayload(channel),
      member: {
        user: member.user,
        roles: member.roles,
        permissions: '2147483648',
        joined_at: new Date(0).toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
        pending: false,
        nick: null,
        avatar: null,
      },
      context: 0,
      authorizing_integration_owners: { '0': this.guildId },
    };
  }

  private pushInteraction(payload: Record<string, unknown>, ageMs = 0): string {
    const id = payload.id as string;
    this.interactions.set(id, {
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
    this.dispatch('INTERACTION_CREATE', payload);
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
  async waitFor<T>(predicate: () => T | undefined | false, timeoutMs = 3000, what = 'condition'): Promise<T> {
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
  async waitForAnswer(id: string, count = 1, timeoutMs = 3000): Promise<InteractionRecord> {
    return this.waitFor(() => {
      const rec = this.interaction(id);
      return rec.messages.length >= count || rec.autocompleteChoices ? rec : undefined;
    }, timeoutMs, `the answer to interaction ${id}`);
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  async close(): Promise<void> {
    this.socket?.terminate();
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- gateway -------------------------------------------------------------------------------

  private onSocket(ws: WebSocket): void {
    this.connections += 1;
    this.socket?.terminate();
    this.socket = ws;
    this.socketReady = false;
    const send = (payload: unknown): void => ws.send(JSON.stringify(payload));
    send({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs }, s: null, t: null });
    ws.on('message', (raw) => {
      const payload = JSON.parse(raw.toString()) as { op: number; d: Record<string, unknown> };
      switch (payload.op) {
        case 1:
          this.heartbeats += 1;
          send({ op: 11, d: null, s: null, t: null });
          break;
        case 2:
          this.onIdentify(ws, payload.d);
          break;
        case 6:
          this.onResume(ws, payload.d);
          break;
        default:
          break;
      }
      this.notify();
    });
    ws.on('close', () => {
      if (this.socket === ws) {
        this.socket = undefined;
        this.socketReady = false;
      }
      this.notify();
    });
  }

  private onIdentify(ws: WebSocket, d: Record<string, unknown>): void {
    if (d.token !== this.token) {
      ws.close(4004, 'Authentication failed.');
      return;
    }
    this.identifies += 1;
    this.sessionId = `session-${snowflake()}`;
    this.seq = 0;
    this.dispatchLog.length = 0;
    this.refuseResume = false;
    this.socketReady = true;
    this.dispatch('READY', {
      v: 10,
      user: this.botUser,
      guilds: [{ id: this.guildId, unavailable: true }],
      session_id: this.sessionId,
      resume_gateway_url: this.gatewayUrl,
      shard: [0, 1],
      application: { id: this.appId, flags: 0 },
      user_settings: {},
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
    });
    this.dispatch('GUILD_CREATE', this.guildPayload());
  }

  private onResume(ws: WebSocket, d: Record<string, unknown>): void {
    if (this.refuseResume || d.session_id !== this.sessionId || d.token !== this.token) {
      ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
      return;
    }
    this.resumes += 1;
    const since = typeof d.seq === 'number' ? d.seq : 0;
    for (const event of this.dispatchLog.filter((e) => e.s > since)) {
      ws.send(JSON.stringify({ op: 0, ...event }));
    }
    this.socketReady = true;
    this.seq += 1;
    ws.send(JSON.stringify({ op: 0, s: this.seq, t: 'RESUMED', d: {} }));
  }

  /** Sends a dispatch now, or keeps it for replay on RESUME when the socket is down. */
  private dispatch(t: string, d: unknown): void {
    this.seq += 1;
    const event = { s: this.seq, t, d };
    this.dispatchLog.push(event);
    if (this.socket && this.socketReady) this.socket.send(JSON.stringify({ op: 0, ...event }));
  }

  private channelPayload(channel: { id: string; name: string }): Record<string, unknown> {
    return {
      id: channel.id,
      type: 0,
      guild_id: this.guildId,
      name: channel.name,
      position: 0,
      permission_overwrites: [],
      parent_id: null,
      nsfw: false,
      topic: null,
      rate_limit_per_user: 0,
      last_message_id: null,
      flags: 0,
    };
  }

  private roles(): Record<string, unknown>[] {
    const role = (id: string, name: string, position: number, permissions: string): Record<string, unknown> => ({
      id, name, permissions, position, color: 0, colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false, managed: false, mentionable: false, flags: 0, icon: null, unicode_emoji: null,
    });
    return [role(this.guildId, '@everyone', 0, '2147483648'), role(this.refereeRoleId, 'Referees', 1, '2147483648')];
  }

  private guildPayload(): Record<string, unknown> {
    return {
      id: this.guildId,
      name: 'Valormr Test Guild',
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
      roles: this.roles(),
      channels: [...this.channels.values()].map((c) => {
        const { guild_id: _omit, ...rest } = this.channelPayload(c);
        return rest;
      }),
      members: [...this.members.values()].map((m) => ({
        user: m.user, roles: m.roles, joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0, pending: false, nick: null, avatar: null,
      })),
      threads: [],
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

    if (url.pathname.startsWith('/attachments/')) {
      const id = url.pathname.split('/')[2] ?? '';
      const file = this.attachments.get(id);
      if (!file) return this.send(res, 404, { message: 'Not Found' });
      res.writeHead(200, { 'content-type': file.contentType });
      res.end(Buffer.from(file.data));
      return;
    }
    if (!url.pathname.startsWith(API_PREFIX)) return this.send(res, 404, { message: '404: Not Found', code: 0 });

    const path = decodeURIComponent(url.pathname.slice(API_PREFIX.length));
    const query = Object.fromEntries(url.searchParams.entries());
    let body: unknown = undefined;
    let files: RecordedFile[] = [];
    const contentType = req.headers['content-type'] ?? '';
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
    files = files.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));

    const auth = req.headers.authorization;
    let status = 200;
    let answer: unknown = undefined;
    const failure = this.failures.find((f) => f.remaining > 0 && f.match(method, path));
    if (failure && failure.delayMs > 0) {
      failure.remaining -= 1;
      await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
    }
    if (failure && failure.status > 0) {
      failure.remaining -= 1;
      status = failure.status;
      answer = failure.body;
      if (status === 429) res.setHeader('retry-after', '0');
    } else {
      [status, answer] = this.route(method, path, query, auth, body, files);
    }
    this.calls.push({ method, path, query, auth, body, files, status, at: Date.now() });
    this.send(res, status, answer);
    this.notify();
  }

  private send(res: ServerResponse, status: number, answer: unknown): void {
    if (status === 204 || answer === undefined) {
      res.writeHead(status === 200 ? 204 : status);
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  }

  private route(method: string, path: string, query: Record<string, string>, auth: string | undefined, body: unknown, files: RecordedFile[]): [number, unknown] {
    const parts = path.split('/').filter(Boolean);
    const isBot = auth === `Bot ${this.token}`;
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
      return [200, { url: this.gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 } }];
    }
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(data.recipient_id);
      const member = this.members.get(recipient);
      if (!member) return [400, { message: 'Invalid Recipient(s)', code: 50033 }];
      let dmId = [...this.dmChannels.entries()].find(([, u]) => u === recipient)?.[0];
      if (!dmId) {
        dmId = snowflake();
        this.dmChannels.set(dmId, recipient);
      }
      return [200, { id: dmId, type: 1, last_message_id: null, flags: 0, recipients: [member.user] }];
    }
    if (parts[0] === 'channels' && parts.length === 2 && method === 'GET') {
      const channel = this.channels.get(parts[1]!);
      if (channel) return [200, this.channelPayload(channel)];
      const dmUser = this.dmChannels.get(parts[1]!);
      if (dmUser) return [200, { id: parts[1], type: 1, last_message_id: null, flags: 0, recipients: [this.members.get(dmUser)!.user] }];
      return [404, { message: 'Unknown Channel', code: 10003 }];
    }
    if (parts[0] === 'channels' && parts[2] === 'messages' && parts.length === 3 && method === 'POST') {
      const channelId = parts[1]!;
      const dmUser = this.dmChannels.get(channelId);
      if (dmUser !== undefined && this.closedDms.has(dmUser)) {
        return [403, { message: 'Cannot send messages to this user', code: 50007 }];
      }
      if (dmUser === undefined && !this.channels.has(channelId)) return [404, { message: 'Unknown Channel', code: 10003 }];
      const invalid = this.validateMessage(data);
      if (invalid) return invalid;
      const message = this.store({ channelId, dmUserId: dmUser, interactionId: undefined, ephemeral: false, kind: dmUser ? 'dm' : 'channel' }, data, files);
      return [200, this.messagePayload(message)];
    }
    if (method === 'PUT' && parts[0] === 'applications' && parts[1] === this.appId) {
      const isGuild = parts[2] === 'guilds' && parts[3] === this.guildId && parts[4] === 'commands';
      const isGlobal = parts[2] === 'commands' && parts.length === 3;
      if (!isGuild && !isGlobal) return [404, { message: 'Unknown Guild', code: 10004 }];
      const list = body as CommandSchema[];
      this.setCommands(list);
      return [200, list.map((c) => ({ ...c, id: snowflake(), application_id: this.appId, version: snowflake(), ...(isGuild ? { guild_id: this.guildId } : {}) }))];
    }
    return [404, { message: '404: Not Found', code: 0 }];
  }

  private validateMessage(data: Record<string, unknown>): [number, unknown] | undefined {
    const content = typeof data.content === 'string' ? data.content : '';
    if (content.length > 2000) {
      return [400, { message: 'Invalid Form Body', code: 50035, errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } } }];
    }
    return undefined;
  }

  private onCallback(id: string, token: string, data: Record<string, unknown>, files: RecordedFile[]): [number, unknown] {
    const rec = this.interactions.get(id);
    if (!rec || rec.token !== token) return [404, { message: 'Unknown interaction', code: 10062 }];
    if (rec.callbacks.length > 0) return [400, { message: 'Interaction has already been acknowledged.', code: 40060 }];
    if (Date.now() - rec.pushedAt > 3000) return [404, { message: 'Unknown interaction', code: 10062 }];
    const type = data.type as number;
    const inner = (data.data ?? {}) as Record<string, unknown>;
    rec.callbacks.push({ type, data: inner, at: Date.now() });
    const ephemeral = ((Number(inner.flags ?? 0)) & EPHEMERAL) !== 0;
    switch (type) {
      case 4: {
        const invalid = this.validateMessage(inner);
        if (invalid) {
          rec.callbacks.pop();
          return invalid;
        }
        rec.originalDone = true;
        rec.messages.push(this.store({ channelId: rec.channelId, dmUserId: undefined, interactionId: id, ephemeral, kind: 'interaction' }, inner, files));
        break;
      }
      case 5:
      case 6:
        rec.deferredEphemeral = ephemeral;
        break;
      case 8:
        rec.autocompleteChoices = (inner.choices ?? []) as { name: string; value: string }[];
        break;
      default:
        break;
    }
    return [204, undefined];
  }


  private onWebhook(method: string, token: string, rest: string[], _query: Record<string, string>, data: Record<string, unknown>, files: RecordedFile[]): [number, unknown] {
    const rec = [...this.interactions.values()].find((r) => r.token === token);
    if (!rec) return [401, { message: 'Invalid Webhook Token', code: 50027 }];
    if (rec.callbacks.length === 0) return [404, { message: 'Unknown Webhook', code: 10015 }];
    const invalid = this.validateMessage(data);
    if (invalid && method !== 'DELETE') return invalid;
    const original = rest[0] === 'messages' && rest[1] === '@original';
    if (original && method === 'PATCH') {
      const existing = rec.messages[0];
      if (existing && rec.originalDone) {
        if (typeof data.content === 'string') existing.content = data.content;
        if (Array.isArray(data.components)) existing.components = data.components;
        if (files.length > 0) existing.files = files;
        return [200, this.messagePayload(existing)];
      }
      if (rec.deferredEphemeral === undefined) return [404, { message: 'Unknown Message', code: 10008 }];
      rec.originalDone = true;
      const message = this.store({ channelId: rec.channelId, dmUserId: undefined, interactionId: rec.id, ephemeral: rec.deferredEphemeral, kind: 'interaction' }, data, files);
      rec.messages.unshift(message);
      return [200, this.messagePayload(message)];
    }
    if (original && method === 'DELETE') {
      if (rec.originalDone && rec.messages[0]) {
        const original = rec.messages.shift()!;
        this.messages.splice(this.messages.indexOf(original), 1);
      }
      rec.originalDone = true;
      return [204, undefined];
    }
    if (rest.length === 0 && method === 'POST') {
      // The first follow-up after a deferral replaces the "thinking" message and keeps its visibility.
      let ephemeral = ((Number(data.flags ?? 0)) & EPHEMERAL) !== 0;
      if (!rec.originalDone && rec.deferredEphemeral !== undefined) {
        ephemeral = rec.deferredEphemeral;
        rec.originalDone = true;
      }
      const message = this.store({ channelId: rec.channelId, dmUserId: undefined, interactionId: rec.id, ephemeral, kind: 'interaction' }, data, files);
      rec.messages.push(message);
      return [200, this.messagePayload(message)];
    }
    return [404, { message: '404: Not Found', code: 0 }];
  }

  private store(
    meta: Pick<FakeMessage, 'channelId' | 'dmUserId' | 'interactionId' | 'ephemeral' | 'kind'>,
    data: Record<string, unknown>,
    files: RecordedFile[],
  ): FakeMessage {
    const message: FakeMessage = {
      ...meta,
      id: snowflake(),
      content: typeof data.content === 'string' ? data.content : '',
      components: Array.isArray(data.components) ? data.components : [],
      files,
      at: Date.now(),
    };
    this.messages.push(message);
    return message;
  }

  private messagePayload(message: FakeMessage): Record<string, unknown> {
    return {
      id: message.id,
      type: message.interactionId ? 20 : 0,
      channel_id: message.channelId,
      ...(message.kind === 'dm' ? {} : { guild_id: this.guildId }),
      author: this.botUser,
      content: message.content,
      timestamp: new Date(message.at).toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: message.files.map((f, i) => ({ id: String(i), filename: f.name, size: f.data.byteLength, url: `http://127.0.0.1:${this.port}/attachments/x/${f.name}`, proxy_url: '', content_type: f.contentType })),
      embeds: [],
      pinned: false,
      flags: message.ephemeral ? EPHEMERAL : 0,
      components: message.components,
      ...(message.interactionId ? { webhook_id: this.appId, application_id: this.appId } : {}),
    };
  }
}
