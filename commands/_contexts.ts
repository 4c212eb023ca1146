/**
 * Where Discord offers a command. Campaign commands are offered in servers only: a campaign lives
 * in a channel, and in the bot's DM there is none to find (so the contact DMs point players to
 * the campaign channel for `/intel`). Only `/help` and `/rules`, which need no campaign, are also
 * offered in the bot's DM. Discord's numbers (InteractionContextType, ApplicationIntegrationType).
 */
export const IN_SERVERS = [0];
export const IN_SERVERS_AND_BOT_DM = [0, 1];
/** Installed to a server (not to a user's account). */
export const SERVER_INSTALL = 0;
