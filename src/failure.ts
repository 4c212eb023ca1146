/**
 * The one-line reason the bot could not start or had to stop, with what to do about it. The same
 * sentence whether Discord refuses the token at login or while the bot is running.
 */
export function failureLine(error: unknown): string {
  const e = (error instanceof Error ? error : new Error(String(error))) as Error & { code?: string };
  const hint = e.code === 'TokenInvalid' ? ' Check DISCORD_TOKEN in .env (Bot tab of the Discord developer portal).'
    : e.code === 'ENOTFOUND' || e.code === 'ECONNREFUSED' ? ' Discord could not be reached: check the network. Without DISCORD_TOKEN, `npm start` plays in the console.'
      : e.code === 'DatabaseGone' ? ' Nothing more was written. Put the database back at that path (or set DATABASE_PATH to where it is) and start the bot again.'
        : '';
  return `${e.message.replace(/\.$/, '')}.${hint}`;
}
