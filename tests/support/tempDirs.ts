import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folders testTempDir() made in this test file, not yet removed. */
const made = new Set<string>();

/**
 * A new empty folder under the system's temporary folder (`prefix` then random characters),
 * removed with everything in it after the test file (tests/setup/removeTempDirs.ts calls
 * removeTestTempDirs from every file's afterAll, on every project).
 */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder testTempDir() made and returns their paths: a folder a test already removed is fine. */
export function removeTestTempDirs(): string[] {
  const removed = [...made];
  made.clear();
  for (const dir of removed) rmSync(dir, { recursive: true, force: true });
  return removed;
}
