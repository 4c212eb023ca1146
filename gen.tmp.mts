import { createApp } from './src/app/createApp.ts';
import { ManualClock } from './src/app/ports.ts';
import { ConsoleSession } from './src/console/session.ts';
import { pretty } from './src/console/main.ts';
const app = createApp({ databasePath: ':memory:', clock: new ManualClock(new Date('2026-11-22T10:00:00Z')), seed: 11, scriptedDice: [], outDir: '/tmp/ux/gen' });
const out: string[] = [];
const show = new Set(process.argv.slice(2));
let current = '';
const s = new ConsoleSession(app, { where: { guildId: 'console', channelId: 'console', baseDir: '.' }, outDir: '/tmp/ux/gen', saveFiles: false, timeZone: 'UTC', write: (o) => { if (show.has(current)) out.push(pretty(o)); } });
const lines = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
  '@referee /campaign assign army:aeskrvald user:prince',
  '@referee /campaign start',
  '@prince /embark vessels:"troopTransport=9,galley=1"',
  '@prince /sail to:Skullhaven',
  '@alice /move to:Valdheim',
  '@prince /army status',
  '!tick',
  '@referee /army edit army:hadewych hex:1122',
  '@referee /army edit army:grallune hex:1121',
  '@referee /contact open armies:"hadewych,grallune"',
  '@alice /engage',
  '@bob /engage',
  '@referee /referee inbox',
  '@alice /turn status',
];
for (const [i, l] of lines.entries()) { current = String(i); out.push(show.has(current) ? `> ${l}` : ''); await s.handle(l); }
console.log(out.filter(Boolean).join('\n'));
app.close();
