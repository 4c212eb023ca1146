import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyOrPlaceChoices } from './_choices.js';
import { answerContact } from '../src/app/contact/answerContact.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('avoid')
    .setDescription('Before the contact phase: avoid contact by moving to an adjacent hex.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('to').setDescription('Adjacent hex to move to, e.g. 0913').setRequired(true).setAutocomplete(true))
    .addStringOption((o) => o.setName('army').setDescription('Your army (if you command several)').setAutocomplete(true))
    .addStringOption((o) => o.setName('contact').setDescription('Contact id, e.g. c3 (if you are in several)')),
  defer: 'ephemeral',
  async execute(ctx) {
    const actor = actorOf(ctx);
    return answerContact(ctx.app, actor, 'avoid', { army: ctx.string('army'), contact: ctx.string('contact'), to: ctx.string('to') });
  },
  async autocomplete(ctx) {
    return armyOrPlaceChoices(ctx);
  },
} satisfies Command;
