import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { sendCourierMessage } from '../src/app/water/sendCourierMessage.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('courier')
    .setDescription('Send a message by courier.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('send').setDescription('Send a courier with a message (private).')
      .addStringOption((o) => o.setName('from-army').setDescription('Your army, the sender').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('to-army').setDescription('The army to receive it').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('message').setDescription('Up to 1,500 characters').setRequired(true).setMaxLength(1500))),
  defer: 'ephemeral',
  async execute(ctx) {
    return sendCourierMessage(ctx.app, actorOf(ctx), { fromArmy: ctx.string('from-army'), toArmy: ctx.string('to-army'), message: ctx.string('message') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value, ctx.focused.name === 'to-army' ? { all: true } : {});
  },
} satisfies Command;
