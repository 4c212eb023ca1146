import { echo } from '../engine/events/index.js';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMap, type MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import { validateScenario, type ScenarioProblem } from '../engine/campaign/index.js';
import { UserError } from './errors.js';

const ASSETS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../assets');
const SCENARIO_DIR = resolve(ASSETS_DIR, 'scenarios');

export function shippedScenarioIds(): string[] {
  if (!existsSync(SCENARIO_DIR)) return [];
  return readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
}

/** Formats every problem of a refused scenario, one per line. */
function formatProblems(problems: readonly ScenarioProblem[]): string {
  const shown = problems.slice(0, 40).map((p) => `- \`${p.path}\`: ${p.message}`);
  if (problems.length > 40) shown.push(`- ... and ${problems.length - 40} more`);
  return shown.join('\n');
}

/** Scenario text longer than this is refused unread (the Valormr scenario is about 40 kB). */
const MAX_SCENARIO_CHARS = 5 * 1024 * 1024;

/** Parses and validates scenario text; a bad one is refused with every problem found. */
export function parseScenarioText(text: string, source: string): ScenarioDoc {
  if (text.length > MAX_SCENARIO_CHARS) {
    throw new UserError('scenario.tooLarge', `The scenario ${source} is ${Math.ceil(text.length / 1024)} kB; scenarios up to ${MAX_SCENARIO_CHARS / 1024 / 1024} MB are accepted.`);
  }
  let doc: unknown;
  try {
    // Editors on Windows save UTF-8 with a byte-order mark; JSON does not allow one.
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UserError('scenario.notJson', `The scenario ${source} is not valid JSON: ${(e as Error).message}`);
  }
  const check = validateScenario(doc);
  if (!check.ok) {
    throw new UserError('scenario.invalid', `The scenario ${source} has ${check.problems.length} problem(s):\n${formatProblems(check.problems)}`, { problems: check.problems });
  }
  return check.scenario;
}

export function loadShippedScenario(id: string): ScenarioDoc {
  const ids = shippedScenarioIds();
  if (!ids.includes(id)) {
    throw new UserError('scenario.unknown', `There is no shipped scenario ${echo(id)}. Shipped: ${ids.join(', ') || '(none)'}; or upload a scenario file.`);
  }
  return parseScenarioText(readFileSync(resolve(SCENARIO_DIR, `${id}.json`), 'utf8'), `"${id}"`);
}

/** The map of a scenario document. */
export function mapOf(scenario: ScenarioDoc): MapModel {
  return buildMap(scenario.map);
}
