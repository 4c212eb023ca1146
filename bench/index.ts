import { benchCommands, benchMemory, benchSyntheticTick } from './app.js';

/**
 * `npm run bench`: the quality bars of DESIGN.md, measured on this machine. Figures go in the
 * notes of the change that moves them.
 */
const noOrders = (): undefined => undefined;
process.stdout.write(`Valormr bench — node ${process.version}\n`);
await benchCommands(noOrders);
await benchSyntheticTick(noOrders);
await benchMemory();
