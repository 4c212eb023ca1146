import type { ButtonHandler, Command } from '../src/app/commandContext.js';
import army from './army.js';
import campaign from './campaign.js';
import helpCommand from './help.js';
import rules from './rules.js';
import map from './map.js';
import turn from './turn.js';
import move from './move.js';
import rest from './rest.js';
import hold from './hold.js';
import weather from './weather.js';
import engage from './engage.js';
import evade from './evade.js';
import avoid from './avoid.js';
import delay from './delay.js';
import withdraw from './withdraw.js';
import scouts from './scouts.js';
import intel from './intel.js';
import terrain from './terrain.js';
import contact from './contact.js';
import battle from './battle.js';
import support from './support.js';
import reserve from './reserve.js';
import relief from './relief.js';
import reinforce from './reinforce.js';
import exploit from './exploit.js';
import maneuver from './maneuver.js';
import { contactButtons } from './_contactButtons.js';
import { refereeButtons } from './_refereeButtons.js';
import referee from './referee.js';
import embark from './embark.js';
import sail from './sail.js';
import debark from './debark.js';
import courier from './courier.js';
import dice from './dice.js';
import web from './web.js';
import { diceButtons } from './_diceButtons.js';
import { readyButtons } from './_readyButtons.js';
import { seatButtons } from './_seatButtons.js';
import ready from './ready.js';
import notify from './notify.js';
import seat from './seat.js';
import away from './away.js';

const help = helpCommand(() => commands);

/** Every slash command the bot registers. One file per command; a test checks this list is complete. */
export const commands: readonly Command[] = [
  engage,
  evade,
  avoid,
  delay,
  withdraw,
  scouts,
  intel,
  terrain,
  contact,
  battle,
  support,
  reserve,
  relief,
  reinforce,
  exploit,
  maneuver,
  campaign,
  army,
  turn,
  move,
  rest,
  hold,
  weather,
  map,
  rules,
  help,
  embark,
  sail,
  debark,
  courier,
  referee,
  dice,
  web,
  ready,
  notify,
  seat,
  away,
];

/** Handlers of button presses, by custom-id prefix. */
export const buttons: readonly ButtonHandler[] = [
  contactButtons,
  refereeButtons,
  diceButtons,
  readyButtons,
  seatButtons,
];

export function findCommand(name: string): Command | undefined {
  return commands.find((c) => c.data.name === name);
}
