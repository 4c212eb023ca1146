import { refereeButton } from '../src/app/referee/inbox.js';
import type { ButtonHandler } from '../src/app/commandContext.js';

/** The referee inbox's buttons: `referee:<campaignId>:<action>[:<argument>]`. */
export const refereeButtons: ButtonHandler = {
  prefix: 'referee',
  async execute({ app, userId, customId, roleIds }) {
    return refereeButton(app, userId, customId, roleIds);
  },
};
