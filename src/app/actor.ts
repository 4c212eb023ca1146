import { UserError } from './errors.js';

/** Who is asking, and where: built by the transport from the interaction (or console line). */
export interface Actor {
  readonly userId: string;
  readonly userName: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly roleIds: readonly string[];
  /**
   * Permissions the bot lacks in this channel to run a campaign there (post the chronicle,
   * attach the map), named as the platform names them, e.g. "Attach Files". Undefined when the
   * transport cannot tell (the console).
   */
  readonly botMissingPermissions?: readonly string[];
}

/**
 * Refuses to create or start a campaign in a channel where the bot could not post it, naming
 * every missing permission and where to give it.
 */
export function requireChannelPermissions(actor: Actor, command: string): void {
  const missing = actor.botMissingPermissions ?? [];
  if (missing.length === 0) return;
  const names = missing.map((p) => `**${p}**`).join(', ');
  throw new UserError('campaign.botPermissions', `I lack ${missing.length === 1 ? 'the permission' : 'these permissions'} ${names} in this channel, so I could not post the campaign's chronicle and map here. A server admin can give ${missing.length === 1 ? 'it' : 'them'} to my role (channel settings, Permissions); then run \`${command}\` again.`, { missing: [...missing] });
}
