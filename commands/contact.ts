import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { listContacts, openContactCase, resolveContactNow, splitContactCase } from '../src/app/contact/contactAdmin.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('contact')
    .setDescription('Referee: the open contacts.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('list').setDescription('Every open contact, its step and who has not answered.'))
    .addSubcommand((s) => s.setName('split').setDescription('Split a contact of three or more forces into separate engagements.')
      .addStringOption((o) => o.setName('groups').setDescription('Armies by group: "a,b;c,d"').setRequired(true))
      .addStringOption((o) => o.setName('contact').setDescription('Contact id, e.g. c3')))
    .addSubcommand((s) => s.setName('resolve').setDescription('Resolve the current step now (missing answers: silent, then engage).')
      .addStringOption((o) => o.setName('contact').setDescription('Contact id, e.g. c3')))
    .addSubcommand((s) => s.setName('open').setDescription('Open a contact by hand between adjacent enemies.')
      .addStringOption((o) => o.setName('armies').setDescription('Ids of the enemy armies in contact, separated by commas, e.g. "hadewych,grallune"').setRequired(true))),
  defer: 'ephemeral',
  async execute(ctx) {
    const actor = actorOf(ctx);
    switch (ctx.subcommand) {
      case 'split': return splitContactCase(ctx.app, actor, { contact: ctx.string('contact'), groups: ctx.string('groups') });
      case 'resolve': return resolveContactNow(ctx.app, actor, { contact: ctx.string('contact') });
      case 'open': return openContactCase(ctx.app, actor, { armies: ctx.string('armies') });
      default: return listContacts(ctx.app, actor);
    }
  },
} satisfies Command;
