import { readFileSync } from 'node:fs';
import type { Harness } from '../scenarios/harness.js';

/** The referee's export, as the file they would hand on. */
export async function exported(x: Harness): Promise<string> {
  const out = await x.run('@referee /campaign export');
  const file = out.find((o) => o.files?.length)?.files?.[0];
  if (!file) throw new Error(`no export: ${JSON.stringify(out.at(-1))}`);
  return readFileSync(file, 'utf8');
}
