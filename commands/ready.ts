import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { markReady } from '../src/app/turn/markReady.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('ready')
    .setDescription('Say you are done for this half period (with early ticks on, the tick comes when all are).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addBooleanOption((o) => o.setName('undo').setDescription('Take it back: you are not done yet')),
  defer: 'ephemeral',
  async execute(ctx) {
    return markReady(ctx.app, actorOf(ctx), ctx.boolean('undo') ?? false);
  },
} satisfies Command;
