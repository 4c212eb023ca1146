import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { DURATIONS_FILE, type RecordedDurations } from './durationSequencer.js';

/**
 * Records what each test file cost in this run (import, setup files, hooks and tests, in seconds)
 * in tests/durations.json, which tests/setup/durationSequencer.ts reads to start the longest files
 * first. On only in `npm run test:durations` (a whole run; commit the file it writes). A file that
 * failed is still recorded: what it cost is what matters for the order.
 */
export default class DurationReporter implements Reporter {
  private root = '';

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const seconds: Record<string, number> = {};
    for (const m of modules) {
      const d = m.diagnostic();
      const total = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      seconds[`${m.project.name}:${relative(this.root, m.moduleId)}`] = Math.round(total / 100) / 10;
    }
    const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
    const load = loadavg().map((l) => l.toFixed(1)).join(' ');
    const recorded: RecordedDurations = { recorded: `${new Date().toISOString().slice(0, 16)}Z, load ${load} at the end`, seconds: sorted };
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(recorded, null, 1)}\n`);
  }
}
