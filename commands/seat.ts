import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { campaignSeat, claimSeat } from '../src/app/table/seat.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

/*
 * Substitutes for absent commanders (issue 27 names it `/campaign seat`; /campaign is at Discord's
 * 4,000 characters of names and descriptions per command, so the seat has its own command).
 */
export default {
  data: new SlashCommandBuilder()
    .setName('seat')
    .setDescription('Substitutes: offer an absent commander\'s army (referee), or claim an offered seat.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('offer').setDescription('Referee: offer the seat with a Claim button, or name the substitute.')
      .addStringOption((o) => o.setName('army').setDescription('Army').setRequired(true).setAutocomplete(true))
      .addUserOption((o) => o.setName('user').setDescription('The substitute, at once (else a Claim button is posted)')))
    .addSubcommand((s) => s.setName('withdraw').setDescription('Referee: withdraw an offer; its Claim button no longer works.')
      .addStringOption((o) => o.setName('army').setDescription('Army').setRequired(true).setAutocomplete(true)))
    .addSubcommand((s) => s.setName('give-back').setDescription('Referee: end a substitution; the seat goes back to who held it.')
      .addStringOption((o) => o.setName('army').setDescription('Army').setRequired(true).setAutocomplete(true)))
    .addSubcommand((s) => s.setName('claim').setDescription('Take an offered seat as substitute (as its Claim button does).')
      .addStringOption((o) => o.setName('army').setDescription('The offered army').setRequired(true).setAutocomplete(true))),
  async execute(ctx) {
    const actor = actorOf(ctx);
    if (ctx.subcommand === 'claim') return claimSeat(ctx.app, actor, { army: ctx.string('army') });
    return campaignSeat(ctx.app, actor, { army: ctx.string('army'), userId: ctx.user('user'), userName: ctx.userLabel('user'), action: ctx.subcommand });
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value, { all: true });
  },
} satisfies Command;
