import {
  baselines, CONTACT_MODIFIERS, CONTACT_TABLE, DEPLOYMENT_MODIFIERS, DEPLOYMENT_SCHEDULE, DISENGAGE_MODIFIERS, LOSSES_TABLE,
  PRECALCULATED_INTERVALS, SCOUT_LIMIT, SCOUT_TABLE, SIZE_ESTIMATION_TABLE, TERRAIN_CARDS_EACH, TERRAIN_DECK, type LossCell,
} from '../../engine/contact/index.js';
import type { CampaignSettings } from '../../engine/state/index.js';
import type { TopicAnswer } from './movementTopics.js';
import { codeTable, dieFaces, signed } from './text.js';

const SCOUT_WORDS = { captured: 'captured', killed: 'killed', unsuccessful: 'unsuccessful', successful: 'successful' } as const;

export function scouts(): TopicAnswer {
  const text = [
    '**Scouts** (d6 per scout deployed, rolled on map contact)',
    dieFaces(SCOUT_TABLE, (o) => SCOUT_WORDS[o]),
    `- Successful: ${signed(CONTACT_MODIFIERS.scouts.value)} to your contact dice (at most once, however many succeed).`,
    `- Captured: the captor adds ${signed(CONTACT_MODIFIERS.capturedScouts.value)} to its contact dice.`,
    `- A scout goes up to a mile ahead, stays in the hex, costs no army points. Any number may be deployed (the bot allows up to ${SCOUT_LIMIT}); each rolls once; killed or captured scouts do not shrink what may be deployed later. Set them with \`/scouts\`.`,
  ].join('\n');
  return { text, data: { scoutTable: SCOUT_TABLE, modifiers: { scouts: CONTACT_MODIFIERS.scouts, capturedScouts: CONTACT_MODIFIERS.capturedScouts } } };
}

const SIZE_WORDS = { none: '-', pm50: '±50%', pm25: '±25%', pm10: '±10%', accurate: 'accurate' } as const;
const COMPOSITION_WORDS = { none: '-', basic: 'infantry or cavalry', types: 'all troop types', proportions: 'types, proportions, organization', exact: 'exact, with individuals' } as const;

export function contact(): TopicAnswer {
  const mods = Object.values(CONTACT_MODIFIERS);
  const last = CONTACT_TABLE.length;
  const text = [
    '**Contact dice**: each commander rolls a d6 on map contact.',
    '**Modifiers**',
    ...mods.map((m) => `- ${signed(m.value)} ${m.label}`),
    '(size counts regiments of the whole army; terrain ignores your own hex)',
    '**Contact table** (modified die)',
    codeTable(['die', 'size', 'composition'], CONTACT_TABLE.map((row, i) => {
      const die = i === 0 ? `${i + 1}-` : i === last - 1 ? `${i + 1}+` : String(i + 1);
      const size = row.awareness === 'unaware' ? 'unaware' : row.awareness === 'aware' ? 'aware only' : SIZE_WORDS[row.size];
      return [die, size, COMPOSITION_WORDS[row.composition]];
    })),
    'Size is of the engaging regiment, estimated on the size table (`/rules topic:size`). Contact hour: the half period\'s end hour minus the spread of the unmodified dice.',
  ].join('\n');
  return { text, data: { modifiers: CONTACT_MODIFIERS, table: CONTACT_TABLE } };
}

export function size(): TopicAnswer {
  const bands = Object.keys(SIZE_ESTIMATION_TABLE) as (keyof typeof SIZE_ESTIMATION_TABLE)[];
  const pct = (n: number): string => (n === 0 ? 'accurate' : `${n > 0 ? '+' : '−'}${Math.abs(n)}%`);
  const rolls = (SIZE_ESTIMATION_TABLE[bands[0] ?? 'pm50'] ?? []).map((_, i) => i + 2);
  const text = [
    '**Size estimation**: roll 2d6 in the column of your contact result; the estimate is the true size of the engaging regiment off by this much.',
    codeTable(['2d6', ...bands.map((b) => SIZE_WORDS[b])], rolls.map((r, i) => [r, ...bands.map((b) => pct(SIZE_ESTIMATION_TABLE[b][i] ?? 0))])),
    'Results are weighted toward accuracy (7 is the likeliest roll).',
  ].join('\n');
  return { text, data: { table: SIZE_ESTIMATION_TABLE, rolls } };
}

/** "aggressivePursuit" → "aggressive pursuit". */
const words = (code: string): string => code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function lossWord(c: LossCell): string {
  if (c.destroyed) return 'destroyed';
  if (c.percent === 0) return '-';
  return `${c.percent}%${c.displaced ? ' D' : ''}`;
}

export function disengagement(): TopicAnswer {
  const rows = LOSSES_TABLE.map((row, i) => {
    const above = i === 0 ? undefined : LOSSES_TABLE[i - 1]?.minDifference;
    const top = above === undefined ? undefined : above - 1;
    let range: string;
    if (top === undefined) range = `${row.minDifference}+`;
    else if (row.minDifference === -Infinity) range = `≤${top}`;
    else if (top === row.minDifference) range = String(row.minDifference);
    else range = `${row.minDifference}..${top}`;
    return { range, ...row };
  });
  const mods = Object.entries(DISENGAGE_MODIFIERS).map(([cat, opts]) => `${cat}: ${Object.entries(opts).map(([k, v]) => `${words(k)} ${signed(v)}`).join(', ')}`);
  const text = [
    '**Disengagement** (avoid, evade, delay, withdraw): both commanders roll a d6 and add the best modifier of each category.',
    ...mods.map((m) => `- ${m}`),
    '(terrain: mountains favour the disengaging force, clear does not; the other way round for its opponent)',
    '**Losses** by difference (own total minus the opponent\'s), % of the assault regiment; D = displaced one hex',
    codeTable(['diff', 'delay/withdraw', 'evade', 'avoid'], rows.map((r) => [r.range.replace(/\.\./, ' to '), lossWord(r.delay), lossWord(r.evade), lossWord(r.avoid)])),
  ].join('\n');
  return { text, data: { modifiers: DISENGAGE_MODIFIERS, losses: rows.map((r) => ({ range: r.range, minDifference: Number.isFinite(r.minDifference) ? r.minDifference : null, delay: r.delay, evade: r.evade, avoid: r.avoid })) } };
}

export function deployment(settings: CampaignSettings, inCampaign: boolean): TopicAnswer {
  const layout = baselines(settings.tableWidth, settings.shortBowRange);
  const unit = (u: { count: number; unit: string }): string => `${u.count} ${u.count === 1 ? u.unit : u.unit.replace(/y$/, 'ie')}${u.count === 1 ? '' : 's'}`;
  const text = [
    '**Deployment dice**: d6 each, modified, kept within 1-6.',
    ...Object.values(DEPLOYMENT_MODIFIERS).map((m) => `- ${signed(m.value)} ${m.label}`),
    'Highest score has the initiative and counts baselines from the rear; the others count from the forward one.',
    '**Schedule** by march formation (initial = base + turn × (own score − lowest score))',
    codeTable(['march formation', 'base', 'per turn'], Object.values(DEPLOYMENT_SCHEDULE).map((r) => [r.label, unit(r.base), unit(r.turn)])),
    `**Baselines** (${inCampaign ? 'this campaign' : 'default settings'}: table ${layout.tableWidth}", short bow ${layout.shortBowRange}")`,
    `Forward baseline ${layout.forward}" from your edge, then every ${layout.interval}"${layout.narrowException ? ' (32-35" table exception)' : ''}: ${layout.distances.map((d) => `${d}"`).join(', ')}; ${layout.behindRear}" behind the rear one.`,
    ...layout.notes.map((n) => `- ${n}`),
  ].join('\n');
  return { text, data: { modifiers: DEPLOYMENT_MODIFIERS, schedule: DEPLOYMENT_SCHEDULE, baselines: layout, precalculated: PRECALCULATED_INTERVALS.map((r) => ({ ...r, to: Number.isFinite(r.to) ? r.to : null })), settings: { tableWidth: settings.tableWidth, shortBowRange: settings.shortBowRange }, fromCampaign: inCampaign } };
}

const CARD_WORDS: Record<string, string> = { roughGround: 'rough ground' };

export function terrainCards(): TopicAnswer {
  const total = Object.values(TERRAIN_DECK).reduce((n, c) => n + c, 0);
  const text = [
    `**Terrain cards**: a deck of ${total}.`,
    codeTable(['card', 'count'], Object.entries(TERRAIN_DECK).map(([k, n]) => [CARD_WORDS[k] ?? k, n])),
    `The contact dice winner first draws as many cards as the spread of the unmodified contact dice, in one turn; then everyone draws in turn, one card at a time, until each has ${TERRAIN_CARDS_EACH}. Cards go on a 3 × 3 battlefield grid.`,
  ].join('\n');
  return { text, data: { deck: TERRAIN_DECK, total, cardsEach: TERRAIN_CARDS_EACH } };
}
