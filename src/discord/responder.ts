import { MessageFlags, Routes, type ButtonInteraction, type ChatInputCommandInteraction, type InteractionReplyOptions } from 'discord.js';
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
 */
export class Responder {
  private state: State = 'new';
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly interaction: Repliable) {}

  get answered(): boolean {
    return this.state === 'answered';
  }

  /** Acknowledge now (within Discord's 3 seconds); a no-op once acknowledged. */
  defer(ephemeral: boolean): Promise<void> {
    return this.serial(async () => {
      if (this.state !== 'new') return;
      await this.interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {});
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
        if (this.state === 'new') {
          // The update is the interaction's answer; the others follow up.
          await interaction.update(update.payload);
          this.state = 'answered';
        } else {
          // Already acknowledged (the safety deferral): edit the message itself (the bot's own
          // message, in a DM channel the client may not have cached).
          const p = update.payload;
          await interaction.client.rest.patch(Routes.channelMessage(interaction.channelId, interaction.message.id), {
            body: { content: p.content, components: (p.components ?? []).map((r) => r.toJSON()), allowed_mentions: p.allowedMentions },
          });
        }
      }
      if (this.state === 'new') {
        const [first, ...others] = rest;
        if (!first) return;
        await this.interaction.reply(withFlags(first));
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

  private serial(op: () => Promise<void>): Promise<void> {
    const next = this.chain.then(op, op);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

function withFlags(part: AnswerPart): InteractionReplyOptions {
  return { ...part.payload, ...(part.ephemeral ? { flags: MessageFlags.Ephemeral } : {}) } as InteractionReplyOptions;
}
