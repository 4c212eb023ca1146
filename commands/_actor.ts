import type { Actor } from '../src/app/actor.js';
import type { CommandContext } from '../src/app/commandContext.js';

/** The caller as the app sees them. */
export function actorOf(ctx: CommandContext): Actor {
  return {
    userId: ctx.userId, userName: ctx.userName, guildId: ctx.guildId, channelId: ctx.channelId, roleIds: ctx.roleIds,
    ...(ctx.botMissingPermissions ? { botMissingPermissions: ctx.botMissingPermissions } : {}),
  };
}
