import { DiscordAPIError, HTTPError, MessageFlags, Routes, type ButtonInteraction, type ChatInputCommandInteraction, type InteractionReplyOptions } from 'discord.js';
import { DiscordCodes } from './discordErrors.js';
import type { DiscordPayload } from './payloads.js';

type Repliable = ChatInputCommandInteraction | ButtonInteraction;

/**
 * One Discord message of an answer, and whether only the caller sees it. `update` (a button
 * press) replaces the message whose button was pressed instead of answering beside it.
 */
export interface AnswerPart {
  readonly ephemeral: boolean;
  readonly payload: DiscordPayload;
  readonly update?: boolean;
}

type State = 'new' | 'deferredEphemeral' | 'deferredPublic' | 'answered';

/**
 * Answers one interaction, whatever happened before: a first reply, an edit of a deferral, or
 * follow-ups. Operations are serialised so a safety deferral and the answer cannot race.
 *
 * Discord fixes a deferred answer's visibility at the deferral: an edit of @original (and the
 * first follow-up) keeps it. So the first part with the deferral's visibility becomes the edit
 * and the others follow up with their own. When no part matches: after a public deferral (a
 * private refusal) the "thinking" message is deleted; after a private one it is settled with a
 * short private note; then every part follows up with its own visibility.
 *
 * A late acknowledgement is an expected case, not a failure: on a loaded machine Discord's answer
 * to a deferral, a reply or an update can come after discord.js's REST timeout (15 s), and
 * discord.js then sends the same request again, which Discord refuses with "Interaction has
 * already been acknowledged" (40060) because the first one got through. Only this process
 * answers the interaction (the interaction claim), so a 40060 means one of OUR acknowledgements
 * was taken: the deferral counts as made, and a reply or an update is written again by editing
 * what it acknowledged (idempotent), so the user still gets the answer. An acknowledgement whose
 * connection closed before any answer is tried once more (see acknowledge). `late` is told each time.
 */
export class Responder {
  private state: State = 'new';
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly interaction: Repliable, private readonly late: (what: string) => void = () => undefined) {}

  get answered(): boolean {
    return this.state === 'answered';
  }

  /** Acknowledge now (within Discord's 3 seconds); a no-op once acknowledged. */
  defer(ephemeral: boolean): Promise<void> {
    return this.serial(async () => {
      if (this.state !== 'new') return;
      await this.acknowledge(() => this.interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {}), 'deferral');
      this.state = ephemeral ? 'deferredEphemeral' : 'deferredPublic';
    });
  }

  /** Deliver the parts in order (an update of the pressed message first). */
  send(parts: readonly AnswerPart[]): Promise<void> {
    return this.serial(async () => {
      const interaction = this.interaction;
      const update = interaction.isButton() ? parts.find((p) => p.update) : undefined;
      let rest = parts.filter((p) => !p.update);
      if (update && interaction.isButton()) {
        // The update is the interaction's answer; the others follow up. Already acknowledged (the
        // safety deferral, or an update whose answer came late): edit the pressed message itself.
        const updated = this.state === 'new' && await this.acknowledge(() => interaction.update(update.payload), 'update');
        if (!updated) await editPressed(interaction, update.payload);
        if (this.state === 'new') this.state = 'answered';
      }
      if (this.state === 'new') {
        const [first, ...others] = rest;
        if (!first) return;
        const replied = await this.acknowledge(() => this.interaction.reply(withFlags(first)), 'reply');
        // Its first try (or a deferral whose answer was lost) acknowledged it: make @original say it.
        if (!replied) await this.interaction.editReply(first.payload);
        this.state = 'answered';
        rest = others;
      } else if (this.state === 'deferredEphemeral' || this.state === 'deferredPublic') {
        const deferredEphemeral = this.state === 'deferredEphemeral';
        const matching = rest.findIndex((p) => p.ephemeral === deferredEphemeral);
        if (matching >= 0) {
          await this.interaction.editReply(rest[matching]!.payload);
          rest = rest.filter((_, i) => i !== matching);
        } else if (deferredEphemeral) {
          // Only public parts after a private deferral: settle the private "thinking" message
          // (deleting ephemeral originals is not reliable), then post in public.
          await this.interaction.editReply({ content: 'Done: posted in the channel.', allowedMentions: { parse: [] } });
        } else {
          // Only private parts after a public deferral: remove the public "thinking" message so
          // nothing is shown to the channel, then answer privately.
          await this.interaction.deleteReply();
        }
        this.state = 'answered';
      }
      for (const part of rest) await this.interaction.followUp(withFlags(part));
    });
  }

  /**
   * Sends one acknowledgement: true when Discord took it now. False when Discord refused it as
   * already made (40060): an earlier try of ours got through; it is then marked as acknowledged
   * (so discord.js lets the answer edit or follow up) and told. A request lost on the way (the
   * connection closed before any answer: Discord may or may not have it; discord.js does not retry
   * a POST for that) is tried once more, which either is taken or meets the 40060. Any other
   * error is thrown on.
   */
  private async acknowledge(op: () => Promise<unknown>, what: string, again = true): Promise<boolean> {
    try {
      await op();
      return true;
    } catch (error) {
      if (error instanceof DiscordAPIError && error.code === DiscordCodes.alreadyAcknowledged) {
        this.interaction.deferred = true;
        this.late(`${what} already acknowledged (an earlier try got through: its answer came late or was lost): the answer goes on`);
        return false;
      }
      if (!again || error instanceof DiscordAPIError || error instanceof HTTPError) throw error;
      this.late(`${what} lost on the way (${error instanceof Error ? error.message : String(error)}): tried once more`);
      return this.acknowledge(op, what, false);
    }
  }

  private serial(op: () => Promise<void>): Promise<void> {
    const next = this.chain.then(op, op);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** Edits the pressed message itself (the bot's own message, in a DM channel the client may not have cached). */
async function editPressed(interaction: ButtonInteraction, p: DiscordPayload): Promise<void> {
  await interaction.client.rest.patch(Routes.channelMessage(interaction.channelId, interaction.message.id), {
    body: { content: p.content, components: (p.components ?? []).map((r) => r.toJSON()), allowed_mentions: p.allowedMentions },
  });
}

function withFlags(part: AnswerPart): InteractionReplyOptions {
  return { ...part.payload, ...(part.ephemeral ? { flags: MessageFlags.Ephemeral } : {}) } as InteractionReplyOptions;
}
