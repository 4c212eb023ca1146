/**
 * firstMoveMs, in a fresh process running the COMPILED bot (dist/, as `npm start` runs it): opens
 * the database given (a started campaign on a 200 x 200 map, made by bench/app.ts
 * `benchFirstMove`), then times the first `/move` this process handles (parse, route search with
 * whatever tables the map needs built for the army's profile, the saved order and its reply).
 * Args: <database> <channel> <console line>. Prints one JSON line: { ms, cpuMs, refused, answer }
 * (cpuMs: the process's CPU time over the same span, steadier than ms on a loaded machine).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [databasePath, channelId, text] = process.argv.slice(2);
const dist = new URL('../dist/src/', import.meta.url);
const { createApp } = await import(new URL('app/createApp.js', dist).href);
const { ManualClock } = await import(new URL('app/ports.js', dist).href);
const { seededDice } = await import(new URL('console/seededDice.js', dist).href);
const { ConsoleSession } = await import(new URL('console/session.js', dist).href);

const app = createApp({ databasePath, clock: new ManualClock(new Date('2026-11-22T10:05:00Z')), dice: seededDice(1) });
const outs = [];
const outDir = mkdtempSync(join(tmpdir(), 'valormr-bench-'));
// Removed when the process exits, also when the /move fails (bench/app.ts runs it in the bench's own folder too).
process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
const session = new ConsoleSession(app, { where: { guildId: 'bench', channelId, baseDir: process.cwd() }, outDir, write: (o) => outs.push(o) });
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await session.handle(text);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
app.close();
process.stdout.write(`${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, refused: outs.some((o) => o.data?.error !== undefined), answer: outs[0]?.content?.slice(0, 120) })}\n`);
