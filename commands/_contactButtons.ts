import { answerByButton } from '../src/app/contact/answerContact.js';
import type { ButtonHandler } from '../src/app/commandContext.js';

/** Contact buttons in DMs: `contact:<campaignId>:<contactId>:<choice>:<armyId>[:<hex>]:t<round opened>`. */
export const contactButtons: ButtonHandler = {
  prefix: 'contact',
  async execute({ app, userId, customId, roleIds }) {
    return answerByButton(app, userId, customId, roleIds);
  },
};
