import { benchCommands, benchMemory, benchSyntheticTick } from './app.js';
import { benchMovement } from './movement.js';
import { benchRender } from './render.js';

/**
 * `npm run bench`: the quality bars of DESIGN.md, measured on this machine. Figures go in the
 * notes of the change that moves them.
 */
process.stdout.write(`Valormr bench — node ${process.version}\n\n## App layer (console transport, real SQLite)\n`);
const valley = (armyId: string): string => `/move army:${armyId} to:${armyId.length % 2 === 0 ? '2218' : '1418'} unformed:true`;
await benchMemory();
await benchCommands(valley);
await benchSyntheticTick((armyId) => `/move army:${armyId} to:5050 unformed:true`);
process.stdout.write('\n## Engine: movement resolution only\n');
benchMovement(30);
process.stdout.write('\n## Render\n');
await benchRender();
