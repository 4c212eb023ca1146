import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import type { Reply } from '../messages.js';
import { playTick } from './playTick.js';

/** Referee: `/turn advance` plays the current half period now (the map and sketches are queued with it). */
export function advanceTurn(app: App, actor: Actor, force: boolean): Reply[] {
  return [...playTick(app, { actor }, { force }).replies];
}
