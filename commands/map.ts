import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { mapSnapshot } from '../src/app/map/mapSnapshot.js';
import { armyOrPlaceChoices } from './_choices.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('map')
    .setDescription('The campaign map as a picture (privately).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('view').setDescription('Public map, or your own view with your paths and estimates').addChoices({ name: 'public', value: 'public' }, { name: 'mine', value: 'mine' }))
    .addStringOption((o) => o.setName('around').setDescription('Zoom on this hex or place, e.g. 1416 or Valdheim').setAutocomplete(true))
    .addIntegerOption((o) => o.setName('radius').setDescription('Hexes around it (default 5)').setMinValue(2).setMaxValue(12))
    .addStringOption((o) => o.setName('army').setDescription('One army\'s private view (yours; any army for the referee)').setAutocomplete(true))
    .addStringOption((o) => o.setName('labels').setDescription('Place names').addChoices({ name: 'on', value: 'on' }, { name: 'off', value: 'off' })),
  defer: 'ephemeral',
  async execute(ctx) {
    return mapSnapshot(ctx.app, actorOf(ctx), { view: ctx.string('view'), around: ctx.string('around'), radius: ctx.integer('radius'), labels: ctx.string('labels'), army: ctx.string('army') });
  },
  async autocomplete(ctx) {
    return armyOrPlaceChoices(ctx);
  },
} satisfies Command;
