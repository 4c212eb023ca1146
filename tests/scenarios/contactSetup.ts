import type { ConsoleOutput } from '../../src/console/session.js';
import { consoleHarness, type Harness } from './harness.js';

/**
 * Hadewych (alice) at 1122 faces Ingegerd's Grallune (bob) at 1121 to the north; the Prince of
 * Aeskrvald (carol) waits at 1222 (south-east of Hadewych) only when `three` is set; Arn's Lanze
 * (dan) at 1220 and Gyrhawk (erin) at 1320 stand behind Grallune when `support` is set.
 */
export async function contactHarness(opts: { three?: boolean; support?: boolean } = {}): Promise<Harness> {
  const lines = [
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /army edit army:hadewych hex:1122',
    '@referee /army edit army:grallune hex:1121',
  ];
  if (opts.three) lines.push('@referee /campaign assign army:aeskrvald user:carol', '@referee /army edit army:aeskrvald hex:1222');
  if (opts.support) {
    lines.push('@referee /campaign assign army:lanze user:dan', '@referee /army edit army:lanze hex:1220');
    lines.push('@referee /campaign assign army:gyrhawk user:erin', '@referee /army edit army:gyrhawk hex:1320');
  }
  return consoleHarness({ setup: lines.join('\n') });
}

/** The contact id a command's reply names. */
export function contactIdOf(out: readonly ConsoleOutput[]): string {
  const hit = out.map((o) => (o.data as { contactId?: string } | undefined)?.contactId).find((id) => id !== undefined);
  if (!hit) throw new Error(`no contact id in ${JSON.stringify(out.map((o) => o.content))}`);
  return hit;
}

/** Opens the contact between the named armies and returns its id. */
export async function open(h: Harness, armies: string): Promise<string> {
  return contactIdOf(await h.run(`@referee /contact open armies:"${armies}"`));
}

export async function hexOf(h: Harness, army: string): Promise<string> {
  const [status] = await h.run(`@referee /army status army:${army}`);
  return (status?.data as { hex: string }).hex;
}

/** Channel text must never carry numbers about forces. */
export const SECRET_PATTERN = /\d+\s*(figures?|troops|%)|estimate|contact dice|strength/i;
