import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where each test file's recorded cost lives (written by tests/setup/durationReporter.ts). */
export const DURATIONS_FILE = new URL('../durations.json', import.meta.url);

/** tests/durations.json: seconds a file took (import, setup and tests), keyed `project:path`. */
export interface RecordedDurations {
  readonly recorded: string;
  readonly seconds: Readonly<Record<string, number>>;
}

/** A test file in a project, as the order sees it. */
export interface QueuedFile {
  readonly project: string;
  /** The path from the repository root. */
  readonly path: string;
  /** false: the project's files share their modules in a worker (vitest `isolate: false`). */
  readonly isolate: boolean;
}

/** The key of a file in tests/durations.json. */
export const durationKey = (f: QueuedFile): string => `${f.project}:${f.path}`;

/**
 * The order that makes two workers finish together: longest first, by recorded seconds. A file not
 * recorded (new) counts as the longest: it starts early rather than last. The isolated projects'
 * files are one list across projects. The shared projects' files come after them, each project's
 * files together (vitest hands a worker's imported modules to the next file only when it is of the
 * same project), the project with more seconds first; their many short files fill the end.
 */
export function orderByDuration<F extends QueuedFile>(files: readonly F[], seconds: Readonly<Record<string, number>>): F[] {
  const cost = (f: F): number => seconds[durationKey(f)] ?? Number.POSITIVE_INFINITY;
  const longestFirst = (a: F, b: F): number => (cost(a) === cost(b) ? durationKey(a).localeCompare(durationKey(b)) : cost(b) - cost(a));
  const isolated = files.filter((f) => f.isolate).sort(longestFirst);
  const shared = new Map<string, F[]>();
  for (const f of files) if (!f.isolate) shared.set(f.project, [...(shared.get(f.project) ?? []), f]);
  const total = (fs: readonly F[]): number => fs.reduce((sum, f) => sum + Math.min(cost(f), 1e6), 0);
  const projects = [...shared.values()].map((fs) => fs.sort(longestFirst)).sort((a, b) => total(b) - total(a) || durationKey(a[0]!).localeCompare(durationKey(b[0]!)));
  return [...isolated, ...projects.flat()];
}

function readDurations(): Readonly<Record<string, number>> {
  if (!existsSync(DURATIONS_FILE)) return {};
  return (JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as RecordedDurations).seconds;
}

/**
 * Vitest's sequencer (vitest.config.ts): files in `orderByDuration`'s order, by tests/durations.json.
 * A fresh clone has no vitest results cache, so vitest's own sequencer would run the projects one
 * after another and each project's files by size. Ordering only: every file still runs, in every
 * project, as before.
 */
export class DurationSequencer extends BaseSequencer {
  override sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const queued = specs.map((spec) => ({ spec, project: spec.project.name, path: relative(root, spec.moduleId), isolate: spec.project.config.isolate !== false }));
    return Promise.resolve(orderByDuration(queued, readDurations()).map((q) => q.spec));
  }
}
