import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openConsole } from '../main.js';
import type { ConsoleOutput } from '../session.js';
import type { Case, Check, Reader } from './readCase.js';

/** How one case went: the checks that failed, each with what the reader was shown. */
export interface CaseOutcome {
  readonly passed: boolean;
  readonly failures: readonly string[];
}

function reads(o: ConsoleOutput, r: Reader): boolean {
  if (r.to !== 'any' && o.to !== r.to) return false;
  return r.user === undefined || o.user === r.user;
}

function errorOf(o: ConsoleOutput): string | undefined {
  const e = (o.data as { error?: unknown } | undefined)?.error;
  return typeof e === 'string' ? e : undefined;
}

function holds(check: Check, seen: readonly ConsoleOutput[]): boolean {
  switch (check.verb) {
    case 'contains':
      return seen.some((o) => o.content.includes(check.text));
    case 'matches':
      return seen.some((o) => check.pattern.test(o.content));
    case 'lacks':
      return 'text' in check ? !seen.some((o) => o.content.includes(check.text)) : !seen.some((o) => check.pattern.test(o.content));
    case 'error':
      return seen.some((o) => errorOf(o) === check.code);
    case 'ok':
      return seen.length > 0 && seen.every((o) => errorOf(o) === undefined);
  }
}

function readerText(r: Reader): string {
  return `${r.to === 'any' ? 'any output' : r.to}${r.user ? ` to @${r.user}` : ''}`;
}

/** What a failed check was shown, for the report: the reader's outputs of that line, indented. */
function shown(seen: readonly ConsoleOutput[], all: readonly ConsoleOutput[], r: Reader): string {
  if (seen.length === 0) {
    const other = all.map((o) => `${o.to}${o.user ? ` @${o.user}` : ''}`);
    return `    (nothing for ${readerText(r)}; the line gave: ${other.length > 0 ? other.join(', ') : 'no output at all'})`;
  }
  return seen.map((o) => {
    const err = errorOf(o);
    const head = `    ── ${o.to}${o.user ? ` @${o.user}` : ''}${err ? ` [${err}]` : ''}`;
    return `${head}\n${o.content.split('\n').map((l) => `      ${l}`).join('\n')}`;
  }).join('\n');
}

/**
 * Plays a case through the console exactly as `npm run console -- --script` would (a fresh
 * database, the case's seed, scripted dice and clock), checking each `?` line against what the
 * console lines since the previous check's line showed.
 */
export async function playCase(c: Case, caseDir: string): Promise<CaseOutcome> {
  const dir = mkdtempSync(join(tmpdir(), `valormr-case-${c.id}-`));
  const outputs: ConsoleOutput[] = [];
  const logged: string[] = [];
  const { app, session } = openConsole(
    { script: join(caseDir, 'case.txt'), seed: c.seed, dice: [...c.dice], now: c.now },
    {
      databasePath: join(dir, 'campaign.db'),
      outDir: dir,
      write: (o) => outputs.push(o),
      saveFiles: false,
      timeZone: 'UTC',
      logger: { debug: () => {}, info: () => {}, warn: (_o, msg) => logged.push(`warning: ${msg ?? ''}`), error: (o, msg) => logged.push(`error: ${msg ?? ''} ${JSON.stringify(o)}`) },
    },
  );
  const failures: string[] = [];
  try {
    let from = 0;
    let lastLine = '';
    let afterCheck = false;
    for (const step of c.steps) {
      if (step.kind === 'line') {
        if (afterCheck) from = outputs.length;
        afterCheck = false;
        lastLine = step.text;
        await session.handle(step.text);
        continue;
      }
      afterCheck = true;
      const all = outputs.slice(from);
      const seen = all.filter((o) => reads(o, step.check.reader));
      if (!holds(step.check, seen)) failures.push(`  line ${step.line}: ${step.source}\n    after: ${lastLine}\n${shown(seen, all, step.check.reader)}`);
    }
    if (logged.some((l) => l.startsWith('error'))) failures.push(`  the bot logged an error:\n${logged.map((l) => `    ${l}`).join('\n')}`);
  } finally {
    app.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { passed: failures.length === 0, failures };
}
