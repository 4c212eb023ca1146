import { readyButton } from '../src/app/turn/markReady.js';
import type { ButtonHandler } from '../src/app/commandContext.js';

/** The Ready button on a commander's DMs: `ready:<campaignId>:t<half>`, `/ready` for that half period. */
export const readyButtons: ButtonHandler = {
  prefix: 'ready',
  async execute({ app, userId, customId }) {
    return readyButton(app, userId, customId);
  },
};
