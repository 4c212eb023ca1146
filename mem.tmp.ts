import { configureRenderPool } from './src/render/renderPool.ts';
import { campaignsMemory } from './bench/memory.ts';
const threads = Number(process.env.T ?? 1);
configureRenderPool({ threads });
const base = process.memoryUsage().rss / 1048576;
const rss = await campaignsMemory(Number(process.env.N ?? 100));
console.log(JSON.stringify({ threads, baseMb: Math.round(base), rssMb: Math.round(rss) }));
process.exit(0);
