import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { diceLog } from '../src/app/dice/diceLog.js';
import { enterDice } from '../src/app/dice/enterDice.js';
import { verifyDice } from '../src/app/dice/verifyDice.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('dice')
    .setDescription('Check the dice, read your own rolls, or enter a die you rolled by hand.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('verify').setDescription('Recompute a dice period from its revealed seed and compare it with the log.')
      .addIntegerOption((o) => o.setName('tick').setDescription('The dice period the chronicle names (default: the last revealed)').setMinValue(0).setMaxValue(1_000_000)))
    .addSubcommand((s) => s.setName('log').setDescription('The rolls that concerned your own armies (the referee: every roll).')
      .addIntegerOption((o) => o.setName('tick').setDescription('Only this dice period').setMinValue(0).setMaxValue(1_000_000))
      .addStringOption((o) => o.setName('army').setDescription('One army (yours; any for the referee)').setAutocomplete(true)))
    .addSubcommand((s) => s.setName('enter').setDescription('Enter the die you rolled for a manual roll the bot asked you for.')
      .addIntegerOption((o) => o.setName('value').setDescription('What you rolled').setRequired(true).setMinValue(1).setMaxValue(100))
      .addStringOption((o) => o.setName('roll').setDescription('The roll\'s id from the DM, e.g. rkqxbmt (needed when several wait)').setMaxLength(12))),
  async execute(ctx) {
    const actor = actorOf(ctx);
    switch (ctx.subcommand) {
      case 'log': return diceLog(ctx.app, actor, { tick: ctx.integer('tick'), army: ctx.string('army') });
      case 'enter': return enterDice(ctx.app, actor, { roll: ctx.string('roll'), value: ctx.integer('value') });
      default: return verifyDice(ctx.app, actor, ctx.integer('tick'));
    }
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
