import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { setNotices } from '../src/app/table/notify.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('notify')
    .setDescription('Choose your own notices in this campaign: reminders, tick reports, order confirmations.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addStringOption((o) => o.setName('reminder').setDescription('Lead before a deadline: 30m, 2h, none, or campaign (its own lead)').setMaxLength(20))
    .addStringOption((o) => o.setName('tick-report').setDescription('Your tick report DM')
      .addChoices({ name: 'after every tick', value: 'always' }, { name: 'only when something happened to my armies', value: 'changes' }, { name: 'never', value: 'never' }))
    .addBooleanOption((o) => o.setName('order-confirm').setDescription('A DM each time your orders are stored')),
  defer: 'ephemeral',
  async execute(ctx) {
    return setNotices(ctx.app, actorOf(ctx), { reminder: ctx.string('reminder'), tickReport: ctx.string('tick-report'), orderConfirm: ctx.boolean('order-confirm') });
  },
} satisfies Command;
