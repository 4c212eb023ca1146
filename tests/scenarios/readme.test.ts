import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.js';

/** The README's console examples: every code block whose lines are console lines (`@user /...` or `!...`). */
function readmeScripts(): string[][] {
  const blocks: string[][] = [];
  let open: string[] | undefined;
  for (const line of readFileSync(new URL('../../README.md', import.meta.url), 'utf8').split('\n')) {
    if (line.startsWith('```')) {
      if (open) blocks.push(open);
      open = open ? undefined : [];
    } else if (open && line.trim().length > 0) {
      open.push(line);
    }
  }
  return blocks.filter((lines) => lines.length > 0 && lines.every((l) => /^(@\S+ \/|!)/.test(l)));
}

let h: Harness | undefined;
afterEach(() => h?.close());

describe('the README\'s examples run as written', () => {
  it('GIVEN the console example of the README WHEN played line by line THEN every line is answered without a refusal and the tick is played', async () => {
    const scripts = readmeScripts();
    expect(scripts.length).toBeGreaterThan(0);
    for (const lines of scripts) {
      h = await consoleHarness();
      for (const line of lines) {
        const out = await h.run(line);
        const refused = out.filter((o) => (o.data as { error?: string } | undefined)?.error !== undefined);
        expect(refused.map((o) => o.content), line).toEqual([]);
        expect(out.length, line).toBeGreaterThan(0);
        if (line.startsWith('!tick')) expect(out[0]?.content, line).toMatch(/^Tick: played/);
      }
      h.close();
      h = undefined;
    }
  });
});
