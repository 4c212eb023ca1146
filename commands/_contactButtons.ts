import { answerByButton } from '../src/app/contact/answerContact.js';
import type { ButtonHandler } from '../src/app/commandContext.js';

/** Contact buttons in DMs: `contact:<campaignId>:<contactId>:<choice>:<armyId>[:<hex>]:t<opened>.<facing>` (contactButtonId in src/app/deliveries/contactPrompts.ts; ids sent before have no `t` part). */
export const contactButtons: ButtonHandler = {
  prefix: 'contact',
  async execute({ app, userId, customId, roleIds }) {
    return answerByButton(app, userId, customId, roleIds);
  },
};
