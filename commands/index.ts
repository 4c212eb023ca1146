import type { ButtonHandler, Command } from './types.js';
import army from './army.js';
import campaign from './campaign.js';
import help from './help.js';
import turn from './turn.js';

/** Every slash command the bot registers. One file per command; a test checks this list is complete. */
export const commands: readonly Command[] = [
  campaign,
  army,
  turn,
  help,
];

/** Handlers of button presses, by custom-id prefix. */
export const buttons: readonly ButtonHandler[] = [
];

export function findCommand(name: string): Command | undefined {
  return commands.find((c) => c.data.name === name);
}
