import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { webLink } from '../src/app/web/webAccess.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('web')
    .setDescription('A private link to your campaign page: your map to zoom, the days gone by, your intel (private).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL),
  defer: 'ephemeral',
  async execute(ctx) {
    return webLink(ctx.app, actorOf(ctx));
  },
} satisfies Command;
