import { enterByButton } from '../src/app/dice/enterDice.js';
import type { ButtonHandler } from '../src/app/commandContext.js';

/** Manual dice buttons in DMs: `dice:<campaignId>:<roll id>:<value>`. */
export const diceButtons: ButtonHandler = {
  prefix: 'dice',
  async execute({ app, userId, customId, roleIds }) {
    return enterByButton(app, userId, customId, roleIds);
  },
};
