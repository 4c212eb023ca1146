import { createRequire } from 'node:module';
import type * as CronParser from 'cron-parser';

const load = createRequire(import.meta.url);
let parser: typeof CronParser.CronExpressionParser | undefined;

/**
 * cron-parser's parser, loaded on the first cron walk rather than at start: the package and luxon
 * under it are some 60 CommonJS files, a tenth of the console's start, and `/help` or a campaign
 * without a schedule never walks one.
 */
export function cronParser(): typeof CronParser.CronExpressionParser {
  parser ??= (load('cron-parser') as typeof CronParser).CronExpressionParser;
  return parser;
}
