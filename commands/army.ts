import { SlashCommandBuilder } from '../src/app/slash.js';
import { IN_SERVERS, SERVER_INSTALL } from './_contexts.js';
import { armyStatus } from '../src/app/army/armyStatus.js';
import { editArmy } from '../src/app/army/editArmy.js';
import { mergeDivision, orderWarMachines, splitDivision } from '../src/app/army/divisions.js';
import { setRoles } from '../src/app/movement/setRoles.js';
import { armyPlan } from '../src/app/army/armyPlan.js';
import { armyChoices, placeListChoices } from '../src/app/autocomplete.js';
import { actorOf } from './_actor.js';
import type { Command } from '../src/app/commandContext.js';

export default {
  data: new SlashCommandBuilder()
    .setName('army')
    .setDescription('Your army: status, regiment roles; referee corrections.')
    .setContexts(IN_SERVERS)
    .setIntegrationTypes(SERVER_INSTALL)
    .addSubcommand((s) => s.setName('status').setDescription('Position, points, rest, fatigue and regiments (private).')
      .addStringOption((o) => o.setName('army').setDescription('Your army').setAutocomplete(true)))
    .addSubcommand((s) => s.setName('roles').setDescription('Choose the assault and support regiments (the rest are reserve).')
      .addStringOption((o) => o.setName('assault').setDescription('Regiment that leads and fights').setRequired(true))
      .addStringOption((o) => o.setName('army').setDescription('Your army').setAutocomplete(true))
      .addStringOption((o) => o.setName('support').setDescription('Regiment that follows in support')))
    .addSubcommand((s) => s.setName('edit').setDescription('Referee: set an army\'s hex, figures, fatigue or formation by hand.')
      .addStringOption((o) => o.setName('army').setDescription('Army').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('hex').setDescription('New hex, e.g. 0712'))
      .addStringOption((o) => o.setName('figures').setDescription('regiment=figures, e.g. r1=14'))
      .addBooleanOption((o) => o.setName('fatigued').setDescription('Mark fatigued or rested'))
      .addStringOption((o) => o.setName('formation').setDescription('Formed or unformed').addChoices({ name: 'formed', value: 'formed' }, { name: 'unformed', value: 'unformed' })))
    .addSubcommand((s) => s.setName('split').setDescription('ACKS: regiments march off into a neighbouring hex as a division (referee, or commanders if allowed).')
      .addStringOption((o) => o.setName('regiments').setDescription('Regiment ids that march off, e.g. "r3, r4"').setRequired(true))
      .addStringOption((o) => o.setName('to').setDescription('The neighbouring hex, e.g. 0712').setRequired(true))
      .addStringOption((o) => o.setName('army').setDescription('The army that splits').setAutocomplete(true))
      .addStringOption((o) => o.setName('name').setDescription('The division\'s name').setMaxLength(80)))
    .addSubcommand((s) => s.setName('merge').setDescription('ACKS: a division joins a neighbouring army of its side, moving into its hex.')
      .addStringOption((o) => o.setName('into').setDescription('The army it joins').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('army').setDescription('The division that moves').setAutocomplete(true)))
    .addSubcommand((s) => s.setName('machines').setDescription('ACKS: assemble or disassemble the army\'s war machines (a day\'s work).')
      .addStringOption((o) => o.setName('state').setDescription('What they become').setRequired(true)
        .addChoices({ name: 'assembled (6 miles a day, ready for battle)', value: 'assembled' }, { name: 'disassembled (12 miles a day)', value: 'disassembled' }))
      .addStringOption((o) => o.setName('army').setDescription('Your army').setAutocomplete(true)))
    .addSubcommand((s) => s.setName('plan').setDescription('Referee: the plan an army follows when nobody commands it (set, show, clear).')
      .addStringOption((o) => o.setName('army').setDescription('Army').setRequired(true).setAutocomplete(true))
      .addStringOption((o) => o.setName('plan').setDescription('What it does (default: show the plan)').addChoices(
        { name: 'show the plan', value: 'show' }, { name: 'clear the plan', value: 'clear' }, { name: 'hold where it stands', value: 'hold' },
        { name: 'march to a place and hold', value: 'march' }, { name: 'patrol between places', value: 'patrol' }, { name: 'shadow an enemy army', value: 'shadow' },
        { name: 'hold, fall back before a stronger force', value: 'withdraw' }, { name: 'garrison a town', value: 'garrison' }))
      .addStringOption((o) => o.setName('places').setDescription('Place (march, withdraw, garrison) or patrol points in order, e.g. "0712 Valdheim"').setAutocomplete(true).setMaxLength(300))
      .addStringOption((o) => o.setName('target').setDescription('The enemy army to shadow').setAutocomplete(true))
      .addStringOption((o) => o.setName('contact').setDescription('How it answers a contact (default: evade)').addChoices(
        { name: 'engage if stronger, else evade', value: 'evade' }, { name: 'engage if stronger, else delay', value: 'delay' }, { name: 'wait for the referee', value: 'referee' }))
      .addBooleanOption((o) => o.setName('standing').setDescription('Follow it even with a commander (standing orders)'))),
  defer: 'ephemeral',
  async execute(ctx) {
    const actor = actorOf(ctx);
    switch (ctx.subcommand) {
      case 'roles':
        return setRoles(ctx.app, actor, { army: ctx.string('army'), assault: ctx.string('assault'), support: ctx.string('support') });
      case 'split':
        return splitDivision(ctx.app, actor, { army: ctx.string('army'), regiments: ctx.string('regiments'), to: ctx.string('to'), name: ctx.string('name') });
      case 'merge':
        return mergeDivision(ctx.app, actor, { army: ctx.string('army'), into: ctx.string('into') });
      case 'machines':
        return orderWarMachines(ctx.app, actor, { army: ctx.string('army'), state: ctx.string('state') });
      case 'plan':
        return armyPlan(ctx.app, actor, { army: ctx.string('army'), plan: ctx.string('plan'), places: ctx.string('places'), target: ctx.string('target'), contact: ctx.string('contact'), standing: ctx.boolean('standing') });
      case 'edit':
        return editArmy(ctx.app, actor, { army: ctx.string('army'), hex: ctx.string('hex'), figures: ctx.string('figures'), fatigued: ctx.boolean('fatigued'), formation: ctx.string('formation') });
      default:
        return armyStatus(ctx.app, actor, ctx.string('army'));
    }
  },
  async autocomplete(ctx) {
    if (ctx.focused.name === 'places') return placeListChoices(ctx.app, ctx, ctx.focused.value);
    return armyChoices(ctx.app, ctx, ctx.focused.value, ctx.focused.name === 'target' ? { all: true } : {});
  },
} satisfies Command;
