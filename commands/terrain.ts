import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { terrainCardChoices } from '../src/app/reconnaissance/cardChoices.js';
import { placeTerrain } from '../src/app/reconnaissance/placeTerrain.js';
import { showTerrain } from '../src/app/reconnaissance/showTerrain.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

const choices = (...names: string[]) => names.map((n) => ({ name: n, value: n }));

export default {
  data: new SlashCommandBuilder()
    .setName('terrain')
    .setDescription('Terrain reconnaissance: place your terrain cards and see the battlefield sketch.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('place').setDescription('Place or move one of your terrain cards (after the contact phase).')
      .addStringOption((o) => o.setName('card').setDescription('Your card: its number or name').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('row').setDescription('Row, seen from your baseline').setRequired(true).addChoices(...choices('near', 'middle', 'far')))
      .addStringOption((o) => o.setName('column').setDescription('Column, seen from your baseline').setRequired(true).addChoices(...choices('left', 'centre', 'right')))
      .addIntegerOption((o) => o.setName('turn').setDescription('Orientation, degrees clockwise (default: as it lies)').setMinValue(0).setMaxValue(359)
        .addChoices({ name: '0', value: 0 }, { name: '90', value: 90 }, { name: '180', value: 180 }, { name: '270', value: 270 }))
      .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
      .addStringOption((o) => o.setName('contact').setDescription('Contact id, e.g. c3 (if you are in several)')))
    .addSubcommand((s) => s.setName('show').setDescription('Your battlefield sketch as a picture (private).')
      .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
      .addStringOption((o) => o.setName('contact').setDescription('Contact id, e.g. c3 (if you are in several)'))),
  defer: 'ephemeral',
  async execute(ctx) {
    const where = { army: ctx.string('army'), contact: ctx.string('contact') };
    if (ctx.subcommand === 'show') return showTerrain(ctx.app, actorOf(ctx), where);
    return placeTerrain(ctx.app, actorOf(ctx), { ...where, card: ctx.string('card'), row: ctx.string('row'), column: ctx.string('column'), turn: ctx.integer('turn') });
  },
  async autocomplete(ctx) {
    if (ctx.focused.name === 'card') return terrainCardChoices(ctx.app, ctx, { army: ctx.string('army'), contact: ctx.string('contact'), partial: ctx.focused.value });
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
