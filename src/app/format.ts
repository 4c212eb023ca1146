import { formatGameTime, type GameTime } from '../engine/clock/index.js';
import type { CampaignState } from '../engine/state/index.js';

export function gameTimeLabel(state: Pick<CampaignState, 'clock' | 'season'>, t: GameTime = state.clock): string {
  return state.season ? `${formatGameTime(t)} (${state.season})` : formatGameTime(t);
}

/** Discord timestamp markup: renders in each reader's own timezone. */
export function discordTime(iso: string, style: 'R' | 'f' | 'F' | 't' = 'f'): string {
  return `<t:${Math.floor(Date.parse(iso) / 1000)}:${style}>`;
}

export function list(items: readonly string[], none = '(none)'): string {
  return items.length > 0 ? items.join(', ') : none;
}
