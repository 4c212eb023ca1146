import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.js';
import type { ConsoleOutput } from '../../src/console/session.js';

let h: Harness | undefined;
afterEach(() => h?.close());

/** The movement and tactical profiles each script is played under: every profile's own sentences are read. */
const PROFILES = [
  { profile: 'valormr', tactical: 'valormr', extra: [] },
  { profile: 'acks', tactical: 'chapter002', extra: ['@referee /campaign profile brigades-per-regiment:2 temperature:frigid commander-divisions:true'] },
  { profile: 'acks', tactical: 'warlord', extra: ['@referee /campaign profile temperature:sweltering'] },
  { profile: 'valormr', tactical: 'chapter002', extra: ['@referee /campaign profile temperature:cold brigades-per-regiment:0.5'] },
] as const;

/** A campaign played through the console under a profile: most commands, a voyage, contacts, a battle and its turns, ticks. */
const script = (p: (typeof PROFILES)[number]): string[] => [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign settings',
  '@referee /campaign settings reminder-lead:60 missed-orders:hold referee-role:umpires',
  `@referee /campaign settings profile:${p.profile} tactical:${p.tactical}`,
  ...p.extra,
  '@referee /campaign profile',
  '@alice /rules topic:profile',
  '@alice /rules topic:rest',
  '@referee /campaign start',
  '@referee /campaign status',
  '@alice /help',
  '@alice /help command:move',
  '@alice /rules topic:terrain',
  '@alice /rules topic:contact',
  '@alice /rules topic:weather',
  '@referee /weather set fog:true',
  '@alice /weather show',
  '@alice /army status',
  '@alice /army roles assault:first',
  '@alice /move to:Valdheim forced:true',
  '@alice /move to:throrgrmir',
  '@alice /move to:atlantis',
  '@alice /scouts count:1',
  '@prince /embark vessels:"troopTransport=9,galley=1"',
  '@prince /sail to:Skullhaven',
  '@prince /army status',
  '@prince /map view:mine',
  '@prince /courier send from-army:aeskrvald to-army:grallune message:"Hold the ford"',
  '@referee /army edit army:hadewych figures:"first=17"',
  '@alice /turn status',
  '@referee /turn advance',
  '@referee /army edit army:hadewych hex:1122',
  '@referee /army edit army:grallune hex:1121',
  '@referee /contact open armies:"hadewych,grallune"',
  '@alice /engage',
  '@bob /delay',
  '@referee /contact list',
  '@referee /referee inbox',
  // The battle is met on the track at 1022-1023: both march in a column of figures two abreast, so
  // the briefing must name that formation in words (its key is figures2x20).
  '@referee /army edit army:hadewych hex:1023',
  '@referee /army edit army:grallune hex:1022',
  '@referee /contact open armies:"hadewych,grallune"',
  '@alice /engage',
  '@bob /engage',
  '@alice /intel',
  '@alice /terrain show',
  '@alice /engage',
  '@bob /engage',
  '@referee /referee inbox',
  '@referee /battle list',
  '@referee /battle turn',
  '@alice /battle turn casualties:"hadewych/first=1"',
  '@referee /battle turn',
  '@referee /battle result losses:"grallune/first=2,hadewych/first=3" withdraw:"grallune=retreat"',
  '@referee /turn advance',
  '@referee /turn advance',
  '@referee /turn undo',
  '@referee /turn status',
  '@alice /intel',
  '@referee /campaign pause',
  '@referee /campaign status',
];

/** Keys of internal tables: march formations (figures2x20), snake_case names. */
const KEYS = /\b(?:[a-z]+\d+x\d+|[a-z]+_[a-z_]+)\b/g;
/** Discord's mention markup, which only Discord turns into names. */
const MARKUP = /<[@#][!&]?[^>\s]+>/;
/** camelCase words: internal identifiers (roughGround, halfOrLess, defaultOrder...). */
const CAMEL = /\b[a-z]+[A-Z][A-Za-z]*\b/g;
/** Raw JSON: an object or array of quoted keys. */
const JSON_LIKE = /[{[]\s*"[^"]+"\s*:/;

/** What a reader sees, less what they are shown to type (code spans) and file paths. */
function prose(o: ConsoleOutput): string {
  return o.content.replace(/`[^`]*`/g, ' ').replace(/\S+\.(png|json)\b/g, ' ');
}

describe('plain words in every message, under every profile', () => {
  it.each(PROFILES)('GIVEN a scripted campaign under $profile / $tactical WHEN every message is read (replies, private answers, DMs, channel posts) THEN none carries an internal identifier, key or raw JSON', async (p) => {
    h = await consoleHarness({ seed: 3, setup: '' });
    for (const line of script(p)) await h.run(line);
    const kinds = new Set(h.outputs.map((o) => o.to));
    expect([...kinds].sort()).toEqual(['channel', 'dm', 'ephemeral', 'reply']);
    expect(h.outputs.length).toBeGreaterThan(80);
    // The script reached the battle's deployment briefing (where each force's march formation is named).
    expect(h.outputs.filter((o) => o.content.includes('deployment dice')).length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const o of h.outputs) {
      const text = prose(o);
      for (const word of [...(text.match(CAMEL) ?? []), ...(text.match(KEYS) ?? [])]) found.push(`${o.to}${o.user ? ` ${o.user}` : ''}: "${word}" in ${o.content.slice(0, 120).replace(/\n/g, ' / ')}`);
      if (JSON_LIKE.test(text)) found.push(`${o.to}: raw JSON in ${o.content.slice(0, 160)}`);
      if (MARKUP.test(o.content) || /<t:\d+/.test(o.content)) found.push(`${o.to}: Discord markup in ${o.content.slice(0, 160)}`);
    }
    expect(found).toEqual([]);
  }, 300_000);
});
