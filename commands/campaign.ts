import { SETTING_LIMITS } from '../src/engine/state/index.js';
import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { assignArmy } from '../src/app/campaign/assignCommander.js';
import { campaignSettings } from '../src/app/campaign/campaignSettings.js';
import { campaignStatus } from '../src/app/campaign/campaignStatus.js';
import { createCampaign } from '../src/app/campaign/createCampaign.js';
import { exportCampaign } from '../src/app/campaign/exportCampaign.js';
import { exportCampaignBook } from '../src/app/book/exportBook.js';
import { campaignTimelapse } from '../src/app/book/timelapse.js';
import { deleteCampaign, endCampaign, pauseCampaign, resumeCampaign, startCampaign } from '../src/app/campaign/lifecycle.js';
import { armyChoices } from '../src/app/autocomplete.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('campaign')
    .setDescription('Create and run a campaign in this channel (referee).')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('create').setDescription('Start a new campaign here from a scenario.')
      .addStringOption((o) => o.setName('name').setDescription('Campaign name').setRequired(true).setMaxLength(80))
      .addStringOption((o) => o.setName('scenario').setDescription('A shipped scenario').addChoices({ name: 'Valormr', value: 'valormr' }))
      .addAttachmentOption((o) => o.setName('file').setDescription('Or your own scenario JSON file')))
    .addSubcommand((s) => s.setName('settings').setDescription('Show or change the schedule and rules options.')
      .addStringOption((o) => o.setName('cadence').setDescription('Cron for ticks, e.g. "0 8,20 * * *"'))
      .addStringOption((o) => o.setName('timezone').setDescription('IANA timezone, e.g. Europe/Berlin'))
      .addIntegerOption((o) => o.setName('reminder-lead').setDescription('Minutes before a deadline to remind').setMinValue(0).setMaxValue(1440))
      .addStringOption((o) => o.setName('catch-up').setDescription('After downtime').addChoices({ name: 'run every missed tick', value: 'all' }, { name: 'run one, tell the referee', value: 'one' }, { name: 'run none, tell the referee', value: 'none' }))
      .addRoleOption((o) => o.setName('referee-role').setDescription('Members of this role are co-referees'))
      .addNumberOption((o) => o.setName('table-width').setDescription('Tabletop width in the table\'s unit (inches, or cm under Fantasy Warlord)').setMinValue(SETTING_LIMITS.tableWidth.min).setMaxValue(SETTING_LIMITS.tableWidth.max))
      .addNumberOption((o) => o.setName('bow-range').setDescription('Short bow range in the table\'s unit').setMinValue(SETTING_LIMITS.shortBowRange.min).setMaxValue(SETTING_LIMITS.shortBowRange.max))
      .addBooleanOption((o) => o.setName('drought').setDescription('Optional drought rule'))
      .addBooleanOption((o) => o.setName('advanced-embarkation').setDescription('Optional embarkation times'))
      .addBooleanOption((o) => o.setName('passage-of-lines').setDescription('Advanced: pass through (not stop on) a stationary ally\'s hex (default off)'))
      .addBooleanOption((o) => o.setName('unformed-as-retreat').setDescription('Unformed forces disengage as if in retreat and may be pursued (default on)'))
      .addBooleanOption((o) => o.setName('nocturnal-day-march').setDescription('Goblins, kobolds and orcs may march by day (default off)'))
      .addStringOption((o) => o.setName('missed-orders').setDescription('What an army without orders does').addChoices({ name: 'rest', value: 'rest' }, { name: 'hold', value: 'hold' }))
      .addIntegerOption((o) => o.setName('decision-deadline').setDescription('Ticks commanders have to answer a contact (default 1)').setMinValue(1).setMaxValue(8))
      .addIntegerOption((o) => o.setName('catch-up-cap').setDescription('Most missed half periods played after downtime before pausing (default 4)').setMinValue(1).setMaxValue(48))
      .addIntegerOption((o) => o.setName('undo-depth').setDescription('Half periods /turn undo can take back (default 10)').setMinValue(1).setMaxValue(50))
      .addStringOption((o) => o.setName('manual-dice').setDescription('Which rolls people roll by hand (default none)')
        .addChoices({ name: 'none', value: 'none' }, { name: 'commanders\' contact and deployment rolls', value: 'contact' }, { name: 'every roll of contacts and battles', value: 'battle' }, { name: 'every roll', value: 'all' }))
      .addStringOption((o) => o.setName('positions').setDescription('Army positions: public (default) or fog of war')
        .addChoices({ name: 'public: every army\'s position is known', value: 'public' }, { name: 'fog of war: what each commander knows', value: 'fog' },
          { name: 'public, confirmed (a switch once started)', value: 'public!' }, { name: 'fog of war, confirmed (a switch once started)', value: 'fog!' }))
      .addBooleanOption((o) => o.setName('commander-books').setDescription('Commanders may export their own campaign book before the end'))
      .addIntegerOption((o) => o.setName('absent-after').setDescription('Half periods without orders or answers before an army is under standing orders (0: never)').setMinValue(0).setMaxValue(56))
      .addIntegerOption((o) => o.setName('early-tick').setDescription('Tick as soon as all commanders are /ready, at least this many minutes apart (0: off)').setMinValue(0).setMaxValue(1440))
      .addStringOption((o) => o.setName('quiet-hours').setDescription('No tick or reminder between these hours, e.g. 22:00-07:00 (or none)').setMaxLength(20))
      .addStringOption((o) => o.setName('spectators').setDescription('Public spectator web page: off (default), or how many half periods it lags, e.g. 4').setMaxLength(20))
      .addStringOption((o) => o.setName('profile').setDescription('Movement rules: Valormr (default) or ACKS army movement')
        .addChoices({ name: 'Valormr (000)', value: 'valormr' }, { name: 'ACKS army movement (004)', value: 'acks' }))
      .addStringOption((o) => o.setName('tactical').setDescription('The tabletop battles are fought on (sets the table presets)')
        .addChoices({ name: 'Valormr (001, inches)', value: 'valormr' }, { name: 'Text 002 chapter (inches)', value: 'chapter002' }, { name: 'Fantasy Warlord (003, centimetres)', value: 'warlord' })))
    .addSubcommand((s) => s.setName('profile').setDescription('Show or adjust the profiles\' own settings (ACKS movement, the 002 table).')
      .addNumberOption((o) => o.setName('brigades-per-regiment').setDescription('Large armies: brigades each regiment counts for (default 1)').setMinValue(0.25).setMaxValue(20))
      .addBooleanOption((o) => o.setName('commander-divisions').setDescription('Commanders may split and merge their own armies (default: referee only)'))
      .addStringOption((o) => o.setName('temperature').setDescription('The season\'s temperature (ACKS: frigid and sweltering halve speed; default moderate)')
        .addChoices({ name: 'frigid', value: 'frigid' }, { name: 'cold', value: 'cold' }, { name: 'moderate', value: 'moderate' }, { name: 'sweltering', value: 'sweltering' }))
      .addStringOption((o) => o.setName('terrain-costs').setDescription('Your terrain costs, e.g. "forest=12, swamp=18", or "default"').setMaxLength(120))
      .addBooleanOption((o) => o.setName('march-attrition').setDescription('002 table: forced-march attrition for forces that force-marched on the map that day (default off)')))
    .addSubcommand((s) => s.setName('assign').setDescription('Give an army to a player.')
      .addStringOption((o) => o.setName('army').setDescription('Army').setRequired(true).setAutocomplete(true))
      .addUserOption((o) => o.setName('user').setDescription('The player'))
      .addBooleanOption((o) => o.setName('remove').setDescription('Free the army instead')))
    .addSubcommand((s) => s.setName('start').setDescription('Start the clock.'))
    .addSubcommand((s) => s.setName('pause').setDescription('Stop the clock (announced).')
      .addStringOption((o) => o.setName('until').setDescription('Resume by itself then: 3d, 12h, 2026-12-01 or 2026-12-01 18:00').setMaxLength(40))
      .addStringOption((o) => o.setName('reason').setDescription('Why, shown in /turn status').setMaxLength(200)))
    .addSubcommand((s) => s.setName('resume').setDescription('Restart the clock.')
      .addStringOption((o) => o.setName('missed').setDescription('After downtime past the catch-up cap: the missed half periods')
        .addChoices({ name: 'skip them', value: 'none' }, { name: 'play one now', value: 'one' }, { name: 'play them all, in order', value: 'all' })))
    .addSubcommand((s) => s.setName('status').setDescription('Time, sides, armies and commanders.'))
    .addSubcommand((s) => s.setName('export').setDescription('The campaign as JSON (referee), or as a book in Markdown with a map per day.')
      .addStringOption((o) => o.setName('format').setDescription('json (default, referee) or markdown (the campaign book)').addChoices({ name: 'json', value: 'json' }, { name: 'markdown', value: 'markdown' }))
      .addBooleanOption((o) => o.setName('public').setDescription('The public book (what everyone saw), for anyone')))
    .addSubcommand((s) => s.setName('timelapse').setDescription('The public map through the campaign, one frame per tick (animated).')
      .addBooleanOption((o) => o.setName('secret').setDescription('Referee: every army, even in fog of war (privately)')))
    .addSubcommand((s) => s.setName('end').setDescription('End the campaign for good; its secret dice are revealed for anyone to check.')
      .addStringOption((o) => o.setName('confirm').setDescription('The campaign name, to confirm').setRequired(true)))
    .addSubcommand((s) => s.setName('delete').setDescription('Delete this channel\'s campaign.')
      .addStringOption((o) => o.setName('confirm').setDescription('The campaign name, to confirm').setRequired(true))),
  async execute(ctx) {
    const actor = actorOf(ctx);
    switch (ctx.subcommand) {
      case 'create': {
        const file = ctx.attachment('file');
        return createCampaign(ctx.app, actor, { name: ctx.string('name'), scenario: ctx.string('scenario'), file: file ? { name: file.name, text: await file.text() } : undefined });
      }
      case 'settings':
        return campaignSettings(ctx.app, actor, {
          cadence: ctx.string('cadence'), timezone: ctx.string('timezone'), reminderLeadMinutes: ctx.integer('reminder-lead'), catchUp: ctx.string('catch-up'),
          refereeRoleId: ctx.user('referee-role'), tableWidth: ctx.number('table-width'), shortBowRange: ctx.number('bow-range'), drought: ctx.boolean('drought'),
          advancedEmbarkation: ctx.boolean('advanced-embarkation'), passageOfLines: ctx.boolean('passage-of-lines'),
          unformedAsRetreat: ctx.boolean('unformed-as-retreat'), nocturnalDayMarch: ctx.boolean('nocturnal-day-march'), defaultOrder: ctx.string('missed-orders'), decisionDeadlineTicks: ctx.integer('decision-deadline'),
          catchUpCap: ctx.integer('catch-up-cap'), undoDepth: ctx.integer('undo-depth'), manualDice: ctx.string('manual-dice'), positions: ctx.string('positions')?.replace(/!$/, ''),
          commanderBooks: ctx.boolean('commander-books'), profile: ctx.string('profile'), tactical: ctx.string('tactical'),
          earlyTickGapMinutes: ctx.integer('early-tick'), quietHours: ctx.string('quiet-hours'), absentAfterHalves: ctx.integer('absent-after'),
          spectatorDelay: ctx.string('spectators'),
        }, { confirm: ctx.string('positions')?.endsWith('!') });
      case 'profile':
        return campaignSettings(ctx.app, actor, { brigadesPerRegiment: ctx.number('brigades-per-regiment'), commanderDivisions: ctx.boolean('commander-divisions'), temperature: ctx.string('temperature'), terrainCosts: ctx.string('terrain-costs'), marchAttrition: ctx.boolean('march-attrition') });
      case 'assign': return assignArmy(ctx.app, actor, { army: ctx.string('army'), userId: ctx.user('user'), userName: ctx.userLabel('user'), remove: ctx.boolean('remove') });
      case 'start': return startCampaign(ctx.app, actor);
      case 'pause': return pauseCampaign(ctx.app, actor, { until: ctx.string('until'), reason: ctx.string('reason') });
      case 'resume': return resumeCampaign(ctx.app, actor, ctx.string('missed'));
      case 'export': return ctx.string('format') === 'markdown' ? exportCampaignBook(ctx.app, actor, { publicOnly: ctx.boolean('public') ?? false, uploadLimit: ctx.uploadLimit }) : exportCampaign(ctx.app, actor, ctx.uploadLimit);
      case 'timelapse': return campaignTimelapse(ctx.app, actor, { secret: ctx.boolean('secret') ?? false, uploadLimit: ctx.uploadLimit });
      case 'end': return endCampaign(ctx.app, actor, ctx.string('confirm'));
      case 'delete': return deleteCampaign(ctx.app, actor, ctx.string('confirm'));
      default: return campaignStatus(ctx.app, actor);
    }
  },
  async autocomplete(ctx) {
    return armyChoices(ctx.app, ctx, ctx.focused.value, { all: true });
  },
} satisfies Command;
