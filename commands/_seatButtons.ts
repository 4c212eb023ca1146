import { claimButton } from '../src/app/table/seat.js';
import type { ButtonHandler } from '../src/app/commandContext.js';

/** An offered seat's Claim button: `seat:<campaignId>:<armyId>:<offer>`, the same as `/seat claim`. */
export const seatButtons: ButtonHandler = {
  prefix: 'seat',
  async execute({ app, userId, userName, customId }) {
    return claimButton(app, userId, userName, customId);
  },
};
