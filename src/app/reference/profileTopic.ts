import { LAND_TERRAINS, movementProfile, tacticalProfile, type Fraction, type MovementProfile, type TacticalProfile } from '../../engine/profiles/index.js';
import type { CampaignSettings } from '../../engine/state/index.js';
import type { TopicAnswer } from './movementTopics.js';
import { codeTable } from './text.js';

const frac = (f: Fraction): string => (f.den === 1 ? `×${f.num}` : `×${f.num}/${f.den}`);
const pct = (f: Fraction): number => Math.round((f.num / f.den - 1) * 100);

/** The movement profile's rates: by class, and the speed table when it reads stated speeds. */
function rateLines(p: MovementProfile): string[] {
  const c = p.rates.byClass;
  const lines = [`- **Daily points** (1 point = 1 mile): infantry ${c.infantry}, cavalry ${c.cavalry}, couriers ${c.courier}; an army moves at its slowest unit.`];
  const speeds = p.rates.bySpeed;
  if (speeds) {
    const first = speeds[0];
    const last = speeds[speeds.length - 1];
    if (first && last) lines.push(`- **Speeds** stated per company or regiment: ${first.feet}' → ${first.points}, every ${first.feet}' more → ${first.points} more, up to ${last.feet}' → ${last.points}.`);
  }
  const m = p.rates.warMachines;
  if (m && speeds) lines.push(`- **War machines**: ${m.assembled}' assembled, ${m.disassembled}' disassembled (\`/army machines\`, a day's work; disassembled ones cannot fight).`);
  return lines;
}

/** Rest, fatigue, forced march, carried points. */
function restLines(p: MovementProfile): string[] {
  const days = p.rest.marchingDays;
  return [
    days.kind === 'consecutive'
      ? `- **Rest**: at most ${days.most} marching days in a row${p.rest.halfPeriods ? `; rest in half periods (${p.rest.halfPeriods.restMoveLimit} halves of rest-move at most)` : ''}.`
      : `- **Rest**: at most ${days.most} marching days in any ${days.days}; more fatigues until the rest owed is caught up${p.rest.tirelessExempt ? '; tireless troops owe none' : ''}.`,
    `- **Forced march** ${frac(p.forcedMarch.factor)}, a rest day after it${p.forcedMarch.declaredEarlyDeployment > 0 ? `; declared before the day's march, +${p.forcedMarch.declaredEarlyDeployment} on the deployment dice` : ''}. **Fatigued**: ${pct(p.fatiguedFactor) < 0 ? `${pct(p.fatiguedFactor)} % points` : 'no slower on the march'}.`,
    ...(p.carryUnspent ? ['- **Unspent points** of a march short of its next hex carry to the next day.'] : []),
  ];
}

/** Weather reductions and how they combine; the season's temperature where the profile reads it (the referee's setting). */
function weatherLine(p: MovementProfile, settings: CampaignSettings): string {
  const w = p.weather;
  const heat = w.temperature ? Object.entries(w.temperature).filter(([, f]) => f < 1).map(([t, f]) => `${t} ×${f}`) : [];
  const parts = [
    `hard rain ×${w.hardRain}`,
    ...(w.highWinds < 1 ? [`high winds ×${w.highWinds}`] : []),
    ...(w.gale < 1 ? [`gale ×${w.gale}`] : []),
    ...w.rainLevels.map((l) => `rain level ${l.fromLevel}+ ×${l.factor}`),
    ...(heat.length > 0 ? [`temperature ${heat.join(', ')} (the weather rolls none: the referee sets the season's with \`/campaign profile temperature:\`, now ${settings.temperature})`] : []),
  ];
  const extra = [
    ...(w.reconnaissanceInHardRain !== 0 ? [`contact dice ${w.reconnaissanceInHardRain} in hard rain`] : []),
    ...(w.missileAttack ? [`missile attacks ${w.missileAttack.hardRain} / ${w.missileAttack.highWinds} / ${w.missileAttack.gale} (rain / wind / gale)`] : []),
  ];
  return `- **Weather**: ${parts.join(', ')}; ${w.combine === 'multiply' ? 'reductions multiply' : 'the largest reduction applies'}${extra.length > 0 ? `; ${extra.join('; ')}` : ''}.`;
}

/** Large armies and divisions, where the profile has them. */
function sizeLines(p: MovementProfile): string[] {
  const size = p.size;
  if (!size) return [];
  const rows = [...size.table].reverse().map((r, i, all) => {
    const next = all[i + 1];
    return [next ? `${r.from}-${next.from - 1}` : `${r.from}+`, `${r.columnMiles} mi`, frac(r.multiplier)];
  });
  return [
    `- **Large armies** (${size.brigadesPerRegiment} brigade(s) a regiment): speed multiplier on top of terrain; the column is cut to the day's miles.`,
    codeTable(['brigades', 'column', 'speed'], rows),
    ...(p.divisions ? [`- **Divisions**: \`/army split\` and \`/army merge\` (${p.divisions.commanders ? 'commanders and the referee' : 'the referee'}).`] : []),
  ];
}

/** The tactical profile: the table's unit, presets and readings. */
function tacticalLines(t: TacticalProfile, s: CampaignSettings): string[] {
  const u = t.unit === 'cm' ? ' cm' : '"';
  const readings = [
    ...(t.startingFormation ? ['march formation → starting formation'] : []),
    ...(t.forcedMarch ? [s.marchAttrition ? 'a forced march on the map that day, or fatigue → the chapter\'s attrition and exhaustion check (`march-attrition` on)' : 'the chapter\'s forced-march attrition for forced marches on the table only, none for those on the map (`march-attrition` off)'] : []),
    ...(t.dirtRoads ? ['roads from the rain'] : []),
    ...(t.terrainCards ? ['terrain cards: woods as dense trees, rivers and the stream at bridges and fords only, hills double uphill'] : []),
    ...(t.conventions ? ['rout = fled the field (a withdrawal in rout), pursuit, its own evade'] : []),
    ...(t.flying ? ['flight heights for flying armies'] : []),
  ];
  return [
    `**Tactical profile**: ${t.name}; distances in ${t.unit === 'cm' ? 'centimetres' : 'inches'}; table ${s.tableWidth}${u}, short bow ${s.shortBowRange}${u} (presets ${t.presets.tableWidth}${u}, ${t.presets.shortBowRange}${u}).`,
    ...(readings.length > 0 ? [`- Reads: ${readings.join('; ')}.`] : []),
    ...(t.ratesFromReferee ? ['- Its movement rates are blank in the bot\'s copy of the chapter: the referee\'s.'] : []),
  ];
}

/**
 * `/rules topic:profile`: the campaign's movement and tactical profiles with their numbers, as
 * the rules read them (the channel's campaign, else the defaults).
 */
export function profile(settings: CampaignSettings): TopicAnswer {
  const p = movementProfile(settings);
  const t = tacticalProfile(settings);
  const costs = p.terrain.costs;
  const text = [
    `**Movement profile**: ${p.name} (${p.source}). \`/campaign settings profile:\` chooses it.`,
    ...rateLines(p),
    `- **Terrain**: ${LAND_TERRAINS.map((x) => `${x} ${costs[x]}`).join(', ')}; road ${frac(p.terrain.road)}, track ${frac(p.terrain.track)}${settings.terrainCosts ? ' (the referee\'s table)' : ''}.`,
    ...restLines(p),
    weatherLine(p, settings),
    ...sizeLines(p),
    ...(p.boundaries ? [`- **Kept from Valormr** (${p.source} is silent): ${p.boundaries.keptFromValormr.join('; ')}. **Not played**: ${p.boundaries.notPlayed.join('; ')}.`] : []),
    ...tacticalLines(t, settings),
  ].join('\n');
  return { text, data: { movement: { ...p, key: undefined }, tactical: t } };
}
