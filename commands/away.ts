import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { announceAway } from '../src/app/table/away.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('away')
    .setDescription('Say you will be away: your armies follow their plans or the default, no absence counted.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('until').setDescription('Until then: 3d, 12h, 2026-12-01 or 2026-12-01 18:00').setRequired(true).setMaxLength(40)),
  defer: 'ephemeral',
  async execute(ctx) {
    return announceAway(ctx.app, actorOf(ctx), { until: ctx.string('until') });
  },
} satisfies Command;
