import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { battleList, battleResult, battleTurn } from '../src/app/contact/battle.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('battle')
    .setDescription('Battles fought on the tabletop.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('result').setDescription('Referee: record a battle: losses, withdrawals, pursuit.')
      .addStringOption((o) => o.setName('contact').setDescription('Contact id of the battle, e.g. c3'))
      .addStringOption((o) => o.setName('losses').setDescription('Figures lost: "hadewych/first=4, grallune/first=2"'))
      .addStringOption((o) => o.setName('withdraw').setDescription('Withdrawals: "hadewych=rout" (formed, retreat, rout)'))
      .addStringOption((o) => o.setName('pursue').setDescription('Ids of the armies ordering an aggressive pursuit, e.g. "grallune"')))
    .addSubcommand((s) => s.setName('turn').setDescription('Advance the tabletop turn; each side hears which companies arrive (referee or its commanders).')
      .addStringOption((o) => o.setName('contact').setDescription('Contact id of the battle, e.g. c3'))
      .addStringOption((o) => o.setName('casualties').setDescription('Figures lost in the turn just fought: "hadewych/first=2"')))
    .addSubcommand((s) => s.setName('list').setDescription('Battles waiting for their result.')),
  defer: 'public',
  async execute(ctx) {
    const actor = actorOf(ctx);
    if (ctx.subcommand === 'result') {
      return battleResult(ctx.app, actor, { contact: ctx.string('contact'), losses: ctx.string('losses'), withdraw: ctx.string('withdraw'), pursue: ctx.string('pursue') });
    }
    if (ctx.subcommand === 'turn') return battleTurn(ctx.app, actor, { contact: ctx.string('contact'), casualties: ctx.string('casualties') });
    return battleList(ctx.app, actor);
  },
} satisfies Command;
