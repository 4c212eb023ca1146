import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS_AND_BOT_DM, SERVER_INSTALL } from './_contexts.js';
import { rulesReference } from '../src/app/reference/rulesReference.js';
import { RULES_TOPICS } from '../src/app/reference/topics.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('rules')
    .setDescription('Quick reference of a rules table, as the bot applies it (privately).')
    .setContexts(IN_SERVERS_AND_BOT_DM)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('topic').setDescription('Which table; leave out for the list').addChoices(...RULES_TOPICS.map((t) => ({ name: t.id, value: t.id })))),
  async execute(ctx) {
    return rulesReference(ctx.app, actorOf(ctx), ctx.string('topic'));
  },
} satisfies Command;
