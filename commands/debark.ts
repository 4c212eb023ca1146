import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyOrPlaceChoices } from './_choices.js';
import { debarkArmy } from '../src/app/water/debarkArmy.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('debark')
    .setDescription('Put your embarked army ashore.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('hex').setDescription('Land hex or place to land on: the port, a hex next to the fleet, or the river hex, e.g. 0506').setRequired(true).setAutocomplete(true))
    .addStringOption((o) => o.setName('army').setDescription('Your embarked army').setAutocomplete(true))
    .addStringOption((o) => o.setName('bank').setDescription('River bank (looking downstream)').addChoices({ name: 'left', value: 'left' }, { name: 'right', value: 'right' })),
  defer: 'ephemeral',
  async execute(ctx) {
    return debarkArmy(ctx.app, actorOf(ctx), { army: ctx.string('army'), hex: ctx.string('hex'), bank: ctx.string('bank') });
  },
  async autocomplete(ctx) {
    return armyOrPlaceChoices(ctx);
  },
} satisfies Command;
