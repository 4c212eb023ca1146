import { Events, type Client, type Interaction } from 'discord.js';
import type { App } from '../app/app.js';
import type { ButtonHandler, Command } from '../app/commandContext.js';
import { DeliveryLanes, DRAW_AHEAD, PICTURES_AHEAD } from '../app/outbox.js';
import type { Logger } from '../app/ports.js';
import { isStoreUnavailable } from '../app/handleError.js';
import { loggableError } from './discordErrors.js';
import { discordClient, logIn, watchGateway, type DiscordFatalError } from './gateway.js';
import { interactionRouter } from './interactionRouter.js';
import { makeDeliver } from './outboxDelivery.js';

export interface DiscordBotOptions {
  readonly app: App;
  readonly token: string;
  readonly commands: readonly Command[];
  readonly buttons: readonly ButtonHandler[];
  readonly logger: Logger;
  /** Discord's REST base, e.g. 'http://127.0.0.1:PORT/api' for a fake Discord in tests (DISCORD_API_BASE). */
  readonly restApi?: string;
  /** How long a REST request may take before it is abandoned (and retried). Default 15,000. */
  readonly restTimeoutMs?: number;
  /**
   * How often the outbox is checked (it is also checked after each interaction and each
   * scheduler run; other processes' messages and retries are found by this check). Default 500.
   */
  readonly deliveryIntervalMs?: number;
  /** Destinations delivered to at the same time, one message in flight each. Default 16. */
  readonly deliveryLanes?: number;
  /** Deliveries started at most per second (Discord's global limit is 50 requests a second). Default 50. */
  readonly deliveryPerSecond?: number;
  /** How long a stop waits for interactions and sends in flight before abandoning them. Default 1,000. */
  readonly stopGraceMs?: number;
  /** Checked before each delivery run: false skips it (the database is no longer the one opened). */
  readonly canDeliver?: () => boolean;
  /**
   * Discord will not take this bot any more: a gateway close that cannot be resumed (4004
   * authentication failed, 4010-4014) or a REST 401 while running. The process should stop.
   */
  readonly onFatal?: (error: DiscordFatalError) => void;
  /**
   * A command without `defer` (or a button) still working after this long gets a private
   * deferral, so Discord's 3 seconds are never missed. Default 2,000.
   */
  readonly safetyDeferMs?: number;
}

export interface DiscordBot {
  readonly client: Client<true>;
  /** Deliver due outbox messages now and wait until that is done. */
  deliverNow(): Promise<void>;
  /** Deliver due outbox messages soon (after the run in flight), without waiting. */
  deliverSoon(): void;
  /** Stop taking work, let interactions and the delivery in flight finish, disconnect. */
  stop(): Promise<void>;
}

/** Where the bot is in its life: a fatal report only counts between ready and stop. */
interface LifeState {
  started: boolean;
  stopping: boolean;
  fatal: boolean;
}

/**
 * The bot's lifecycle: the client made, the gateway watched, interactions handed to the router
 * (interactionRouter.ts), login and ready, the outbox delivered, then stop. Resolves once the
 * client is ready.
 */
export async function startDiscordBot(opts: DiscordBotOptions): Promise<DiscordBot> {
  const { app, logger } = opts;
  const life: LifeState = { started: false, stopping: false, fatal: false };
  const client = discordClient(opts);
  const delivery = outboxPump(client, opts, life);
  const route = interactionRouter({ app, logger, commands: opts.commands, buttons: opts.buttons, safetyDeferMs: opts.safetyDeferMs ?? 2000 });
  const inFlight = takeInteractions(client, { route, logger, life, afterEach: delivery.pollIfQueued });
  watchGateway(client, logger, (error) => reportFatal(opts, life, error));

  const readyClient = await logIn(client, opts.token);
  life.started = true;
  logger.info({ bot: readyClient.user.tag, applicationId: readyClient.application.id, guilds: readyClient.guilds.cache.size }, 'discord ready');
  const pollTimer = setInterval(delivery.poll, opts.deliveryIntervalMs ?? 500);
  pollTimer.unref();
  delivery.poll();

  return {
    client: readyClient,
    async deliverNow() {
      if (opts.canDeliver && !opts.canDeliver()) return;
      await delivery.lanes.drain();
    },
    deliverSoon() {
      delivery.poll();
    },
    async stop() {
      if (life.stopping) return;
      life.stopping = true;
      clearInterval(pollTimer);
      await stopGracefully(client, { inFlight, delivery, graceMs: opts.stopGraceMs ?? 1000, logger });
    },
  };
}

/** Before ready, login itself fails with the reason (TokenInvalid...): no second report. */
function reportFatal(opts: DiscordBotOptions, life: LifeState, error: DiscordFatalError): void {
  if (life.fatal || life.stopping || !life.started) return;
  life.fatal = true;
  opts.logger.error({ code: error.code, closeCode: error.closeCode }, `discord: ${error.message}`);
  opts.onFatal?.(error);
}

interface OutboxPump {
  readonly lanes: DeliveryLanes;
  /** Claims what is due into the free lanes (synchronous; a cheap read when nothing is). */
  readonly poll: () => void;
  /** `poll` if this process queued a message since a poll found nothing due (after an interaction: a read costs no poll; the timer's poll finds the rest). */
  readonly pollIfQueued: () => void;
  /** Aborts the sends waiting in the lanes. */
  readonly abort: () => void;
}

/** The outbox's delivery: each destination a lane, so a slow send holds only its own; lanes are refilled as they free up. */
function outboxPump(client: Client, opts: DiscordBotOptions, life: LifeState): OutboxPump {
  const shutdown = new AbortController();
  let storeAway = false;
  const onError = (error: unknown): void => {
    // The store out of reach: said once, not at every poll; the messages wait in the outbox.
    if (isStoreUnavailable(error)) {
      if (!storeAway) opts.logger.warn({ err: loggableError(error) }, 'outbox delivery waits: the campaign store is unavailable');
      storeAway = true;
      return;
    }
    opts.logger.error({ err: loggableError(error) }, 'outbox delivery run failed');
  };
  const lanes = new DeliveryLanes(opts.app, makeDeliver(client, opts.logger), {
    ...(opts.deliveryLanes ? { lanes: opts.deliveryLanes } : {}),
    ...(opts.deliveryPerSecond ? { perSecond: opts.deliveryPerSecond } : {}),
    // Maps are drawn without holding a lane: text to other destinations goes out meanwhile; a few
    // at a time, so drawn maps do not pile up waiting for the rate.
    drawAhead: DRAW_AHEAD,
    picturesAhead: PICTURES_AHEAD,
    signal: shutdown.signal,
    onError,
  });
  const poll = (onlyIfQueued = false): void => {
    if (life.stopping) return;
    if (opts.canDeliver && !opts.canDeliver()) return;
    try {
      // A poll skipped (nothing queued) says nothing of the store: only a full one clears the warning.
      if (onlyIfQueued) lanes.fillIfQueued();
      else {
        lanes.fill();
        storeAway = false;
      }
    } catch (error) {
      onError(error);
    }
  };
  return { lanes, poll: () => poll(), pollIfQueued: () => poll(true), abort: () => shutdown.abort() };
}

/**
 * Hands each interaction to the router while the bot is not stopping, and keeps the handlings in
 * flight (a stop waits for them). After each (but an autocomplete) the outbox is checked.
 */
function takeInteractions(client: Client, how: { route: (i: Interaction) => Promise<void>; logger: Logger; life: LifeState; afterEach: () => void }): Set<Promise<void>> {
  const inFlight = new Set<Promise<void>>();
  client.on(Events.InteractionCreate, (interaction) => {
    if (how.life.stopping) return;
    const handling = how.route(interaction)
      .catch((error: unknown) => how.logger.error({ err: loggableError(error) }, 'interaction routing failed'))
      .finally(() => {
        inFlight.delete(handling);
        if (interaction.isAutocomplete()) return;
        how.afterEach();
      });
    inFlight.add(handling);
  });
  return inFlight;
}

/**
 * Interactions and sends in flight get a short grace; then waiting sends are abandoned (their
 * messages stay queued: the nonce makes a later resend harmless) and the client disconnects.
 */
async function stopGracefully(client: Client, what: { inFlight: Set<Promise<void>>; delivery: OutboxPump; graceMs: number; logger: Logger }): Promise<void> {
  const grace = new Promise<void>((resolve) => setTimeout(resolve, what.graceMs).unref());
  await Promise.race([Promise.allSettled([...what.inFlight, what.delivery.lanes.close()]), grace]);
  what.delivery.abort();
  await what.delivery.lanes.close();
  await client.destroy();
  what.logger.info({}, 'discord stopped');
}
