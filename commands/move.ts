import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyOrPlaceChoices } from './_choices.js';
import { orderMove } from '../src/app/movement/orderMove.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('move')
    .setDescription('Order one of your armies to march: a path of hexes or a destination.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your army').setAutocomplete(true))
    .addStringOption((o) => o.setName('path').setDescription('Hexes (or places) to enter in order, e.g. "0712 0713 0813"'))
    .addStringOption((o) => o.setName('to').setDescription('Destination: a hex (0913) or a place (Valdheim); the bot finds the cheapest route').setAutocomplete(true))
    .addStringOption((o) => o.setName('period').setDescription('When to march (default: day)')
      .addChoices({ name: 'day', value: 'day' }, { name: 'night', value: 'night' }, { name: 'split (dark-seeing only)', value: 'split' }))
    .addBooleanOption((o) => o.setName('forced').setDescription('Forced march: +50 % points, rest tomorrow or be fatigued'))
    .addBooleanOption((o) => o.setName('unformed').setDescription('March unformed (off-road forest for cavalry, mountains): stragglers'))
    .addBooleanOption((o) => o.setName('save').setDescription('Save unspent points for tomorrow'))
    .addBooleanOption((o) => o.setName('cross').setDescription('Cross the river in the last hex and camp on the far bank')),
  defer: 'ephemeral',
  async execute(ctx) {
    return orderMove(ctx.app, actorOf(ctx), {
      army: ctx.string('army'),
      path: ctx.string('path'),
      to: ctx.string('to'),
      period: ctx.string('period'),
      forced: ctx.boolean('forced'),
      unformed: ctx.boolean('unformed'),
      save: ctx.boolean('save'),
      cross: ctx.boolean('cross'),
    });
  },
  async autocomplete(ctx) {
    return armyOrPlaceChoices(ctx);
  },
} satisfies Command;
