import { answerByButton } from '../src/app/contact/answerContact.js';
import { postSketchesAfter } from '../src/app/terrain/postSketches.js';
import type { ButtonHandler } from './_types.js';

/** Contact buttons in DMs: `contact:<campaignId>:<contactId>:<choice>:<armyId>[:<hex>]`. */
export const contactButtons: ButtonHandler = {
  prefix: 'contact',
  async execute({ app, userId, customId }) {
    return postSketchesAfter(app, { customId }, answerByButton(app, userId, customId));
  },
};
