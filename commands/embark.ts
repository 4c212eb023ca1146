import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { embarkArmy } from '../src/app/water/embarkArmy.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('embark')
    .setDescription('Board your army on its vessels.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('vessels').setDescription('kind=count, e.g. troopTransport=9,galley=1').setRequired(true))
    .addStringOption((o) => o.setName('army').setDescription('Your army (when you command several)').setAutocomplete(true)),
  defer: 'ephemeral',
  async execute(ctx) {
    return embarkArmy(ctx.app, actorOf(ctx), { army: ctx.string('army'), vessels: ctx.string('vessels') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
