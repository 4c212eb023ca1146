import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { refereeInbox } from '../src/app/referee/inbox.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('referee')
    .setDescription('Referee: what waits on you.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('inbox').setDescription('Open contacts, battles to record, bounced DMs, missing orders: with buttons to act.')),
  defer: 'ephemeral',
  async execute(ctx) {
    return refereeInbox(ctx.app, actorOf(ctx));
  },
} satisfies Command;
