import type { DroughtLoss, RegimentLoss, WeatherEvent, WeatherFact } from './weatherEvents.js';
import { percentOfFigures, takeFigures, regimentFigures, troopFigures, type Army } from '../forces/index.js';
import { dayOfWeek, type GameTime } from '../clock/index.js';
import type { Dice } from '../dice/index.js';
import { namesOf, PUBLIC, REFEREE, tell, toArmy } from '../events/index.js';
import type { TickStep, WeatherEffects, WeatherState } from '../state/index.js';
import { rollDroughtCasualties } from './drought.js';
import { describeWeatherFact } from './describeWeather.js';

/** Key in WeatherState.track: the campaign day whose drought losses were last taken (once a week). */
export const DROUGHT_LOSSES_DAY_KEY = 'drought.lossesDay';

/** Figures a regiment loses at `percent` of its current figures: rounded up to whole figures. */
export const droughtFigures = percentOfFigures;

/**
 * One army's losses for a week of drought: one roll for the force (half-dice x 5 % in the seventh
 * week, dice x 5 % from the eighth), then that percentage of each regiment's current figures,
 * rounded up to whole figures. Individuals are not troop figures and lose nothing.
 * @see 000 Advanced: Drought
 */
function applyDroughtLosses(army: Army, effects: WeatherEffects, dice: Dice): { army: Army; loss: DroughtLoss } {
  const percent = rollDroughtCasualties(effects, dice, army.name);
  const regiments: RegimentLoss[] = [];
  const next = army.regiments.map((r) => {
    const before = regimentFigures(r);
    const lost = droughtFigures(before, percent);
    if (lost === 0) return r;
    regiments.push({ regimentId: r.id, name: r.name, before, lost });
    return takeFigures(r, lost).regiment;
  });
  const figuresLost = regiments.reduce((n, r) => n + r.lost, 0);
  return { army: figuresLost > 0 ? { ...army, regiments: next } : army, loss: { armyId: army.id, percent, figuresLost, regiments } };
}

/** True on the first morning of a campaign week after the first (days 8, 15, 22 ...). */
function isNewWeekMorning(clock: GameTime): boolean {
  return clock.half === 0 && clock.day > 1 && dayOfWeek(clock) === 1;
}

function lossesTaken(weather: WeatherState, day: number): boolean {
  return weather.track[DROUGHT_LOSSES_DAY_KEY] === day;
}

/**
 * Drought casualties, once a week: on the first morning of each campaign week (days 8, 15, ...),
 * when the drought conditions in force for the week that begins bring losses (its seventh week
 * or later, optional rule on), every army that still has troop figures loses a percentage of
 * each regiment's figures. Each army's commander learns its numbers; the channel only learns
 * that the drought took its toll; the referee gets every number.
 *
 * Place it in the tick plan's `openHalf`, after the weather step (which settles the week's
 * drought first). It records the day in WeatherState.track so a week's losses are taken once.
 * @see 000 Advanced: Drought
 */
export const droughtCasualtyStep: TickStep<WeatherEvent> = ({ state, dice, weather }) => {
  if (!state.settings.drought || !weather.droughtCasualties || !isNewWeekMorning(state.clock)) return { state, events: [] };
  if (lossesTaken(state.weather, state.clock.day)) return { state, events: [] };
  const time = state.clock;
  const armies: Record<string, Army> = { ...state.armies };
  const facts: WeatherFact[] = [];
  const losses: DroughtLoss[] = [];
  for (const [id, army] of Object.entries(state.armies).sort(([x], [y]) => (x < y ? -1 : 1))) {
    if (army.status.destroyed || troopFigures(army) === 0) continue;
    const out = applyDroughtLosses(army, weather, dice);
    armies[id] = out.army;
    losses.push(out.loss);
    facts.push({ type: 'droughtCasualties', audience: toArmy(id), data: { time, ...out.loss } });
  }
  const weatherNext: WeatherState = { ...state.weather, track: { ...state.weather.track, [DROUGHT_LOSSES_DAY_KEY]: state.clock.day } };
  if (losses.length > 0) {
    facts.unshift({ type: 'droughtTookToll', audience: PUBLIC, data: { time } });
    facts.push({ type: 'droughtCasualtiesSummary', audience: REFEREE, data: { time, losses } });
  }
  return { state: { ...state, armies, weather: weatherNext }, events: tell(facts, describeWeatherFact, namesOf(state.armies)) };
};
