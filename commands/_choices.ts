import { armyChoices, placeChoices } from '../src/app/autocomplete.js';
import type { AutocompleteContext, Choice } from '../src/app/commandContext.js';

/** Options that take a hex: offered as the map's places with their hex ids. */
const HEX_OPTIONS = new Set(['to', 'hex', 'around']);

/** Autocomplete for a command with `army:` and hex options: own armies first, places with their hex ids. */
export async function armyOrPlaceChoices(ctx: AutocompleteContext, opts: { all?: boolean } = {}): Promise<readonly Choice[]> {
  if (HEX_OPTIONS.has(ctx.focused.name)) return placeChoices(ctx.app, ctx, ctx.focused.value);
  return armyChoices(ctx.app, ctx, ctx.focused.value, opts);
}
