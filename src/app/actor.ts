/** Who is asking, and where: built by the transport from the interaction (or console line). */
export interface Actor {
  readonly userId: string;
  readonly userName: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly roleIds: readonly string[];
}
