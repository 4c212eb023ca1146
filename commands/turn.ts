import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { advanceTurn } from '../src/app/turn/advanceTurn.js';
import { extendDeadline } from '../src/app/turn/extendDeadline.js';
import { turnStatus } from '../src/app/turn/turnStatus.js';
import { undoTurn } from '../src/app/turn/undoTurn.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('turn')
    .setDescription('The game clock: play the next half period, undo it, or see who has orders in.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('advance').setDescription('Referee: play the current half period now.')
      .addBooleanOption((o) => o.setName('force').setDescription('Play on past an unresolved battle')))
    .addSubcommand((s) => s.setName('extend').setDescription('Referee: give everyone more time before the next tick.')
      .addIntegerOption((o) => o.setName('minutes').setDescription('How much later').setRequired(true).setMinValue(1).setMaxValue(1440)))
    .addSubcommand((s) => s.setName('undo').setDescription('Referee: take back the last half period (its dice are kept).')
      .addBooleanOption((o) => o.setName('reroll').setDescription('Re-roll its dice when it is played again (announced)')))
    .addSubcommand((s) => s.setName('status').setDescription('Game time, next tick, who has given orders.')),
  defer: 'public',
  async execute(ctx) {
    const actor = actorOf(ctx);
    switch (ctx.subcommand) {
      case 'advance': return advanceTurn(ctx.app, actor, ctx.boolean('force') ?? false);
      case 'extend': return extendDeadline(ctx.app, actor, ctx.integer('minutes'));
      case 'undo': return undoTurn(ctx.app, actor, ctx.boolean('reroll') ?? false);
      default: return turnStatus(ctx.app, actor);
    }
  },
} satisfies Command;
