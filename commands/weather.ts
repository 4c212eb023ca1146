import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { setWeather } from '../src/app/weather/setWeather.js';
import { showWeather } from '../src/app/weather/showWeather.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('weather')
    .setDescription('The weather: what it is and what it closes; the referee may override it.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('show').setDescription('Current conditions, rain level and what is closed.'))
    .addSubcommand((s) => s.setName('set').setDescription('Referee: override the current weather (announced).')
      .addStringOption((o) => o.setName('sky').setDescription('The sky').addChoices(
        { name: 'clear', value: 'clear' }, { name: 'cloudy', value: 'cloudy' },
        { name: 'light rain', value: 'lightRain' }, { name: 'hard rain', value: 'hardRain' }))
      .addBooleanOption((o) => o.setName('fog').setDescription('Fog'))
      .addStringOption((o) => o.setName('wind').setDescription('Wind').addChoices(
        { name: 'none', value: 'none' }, { name: 'calm', value: 'calm' },
        { name: 'high winds', value: 'highWinds' }, { name: 'gale', value: 'gale' }))
      .addIntegerOption((o) => o.setName('rain-level').setDescription('Cumulative rain level (0-6)').setMinValue(0).setMaxValue(6))),
  async execute(ctx) {
    const actor = actorOf(ctx);
    if (ctx.subcommand === 'set') {
      return setWeather(ctx.app, actor, { sky: ctx.string('sky'), fog: ctx.boolean('fog'), wind: ctx.string('wind'), rainLevel: ctx.integer('rain-level') });
    }
    return showWeather(ctx.app, actor);
  },
} satisfies Command;
