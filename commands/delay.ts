import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { answerContact } from '../src/app/contact/answerContact.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('delay')
    .setDescription('Before the contact phase: fight a delaying action (takes the half period).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
    .addStringOption((o) => o.setName('contact').setDescription('Contact id, e.g. c3 (if you are in several)')),
  defer: 'ephemeral',
  async execute(ctx) {
    const actor = actorOf(ctx);
    return answerContact(ctx.app, actor, 'delay', { army: ctx.string('army'), contact: ctx.string('contact') });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value);
  },
} satisfies Command;
