import { z } from 'zod';
import table from '../../../assets/rules/weather-table.json' with { type: 'json' };
import { fail, ok, type Result } from '../result.js';
import type { Sky } from '../state/index.js';

/** The columns of the weather table: rain of either kind reads the rainy column. @see RULINGS 2a */
export const WEATHER_COLUMNS = ['clear', 'cloudy', 'rainy'] as const;
export type WeatherColumn = (typeof WEATHER_COLUMNS)[number];

/**
 * What one row of the weather table says.
 * - noChange: the sky stays as it is.
 * - cloudy / clears: the sky becomes cloudy / clear without another roll.
 * - rain: roll the rainy column at once (light rain, hard rain, or only clouds).
 * - lightRain / hardRain: the sky rains.
 * @see 000 Determining Weather
 */
const WEATHER_RESULTS = ['noChange', 'cloudy', 'clears', 'rain', 'lightRain', 'hardRain'] as const;
export type WeatherResult = (typeof WEATHER_RESULTS)[number];

export interface WeatherTableEntry {
  readonly result: WeatherResult;
  /** The row marks a change of weather (the arrow of the texts): the fog/wind die is rolled. */
  readonly change?: boolean;
  readonly note?: string;
}

/** Faces of the fog/wind die. @see 000 Fog and Wind Dice */
export type FogWindFace = 'none' | 'fog' | 'wind';
/** Faces of the wind type die. A gale at sea is high winds on land. */
export type WindTypeFace = 'none' | 'calm' | 'highWinds' | 'gale';

/**
 * The weather table as data, so that a scenario (or a referee) can replace it. Each column is a
 * list of rows; the die rolled on a column has as many sides as the column has rows (six in the
 * default table). The fog/wind and wind type dice are lists of faces in the same way.
 * @see RULINGS 2a
 */
export interface WeatherTable {
  readonly name: string;
  readonly columns: Readonly<Record<WeatherColumn, readonly WeatherTableEntry[]>>;
  /** Rolled once in a period whose weather changed. */
  readonly fogWindDie: readonly FogWindFace[];
  /** Rolled after a 'wind' face of the fog/wind die. */
  readonly windTypeDie: readonly WindTypeFace[];
  /** Rolled at each half period while fog or wind lasts: the faces on which it goes on. */
  readonly persistence: {
    readonly sides: number;
    readonly fog: readonly number[];
    readonly wind: readonly number[];
  };
}

/**
 * The weather table format, built on first use (not at module load: a start that answers its first
 * command before any weather is rolled or shown never builds it; issue 25, startupMs).
 */
let tableSchema: ReturnType<typeof buildTableSchema> | undefined;

function buildTableSchema() {
  const entrySchema = z
    .object({
      result: z.enum(WEATHER_RESULTS),
      change: z.boolean().optional(),
      note: z.string().optional(),
    })
    .strict();

  const column = z.array(entrySchema).min(2, 'needs at least two rows (one per face of the die)');

  return z
    .object({
      name: z.string().min(1),
      columns: z
        .object({
          clear: column,
          cloudy: column,
          rainy: column.refine((rows) => rows.every((r) => r.result !== 'rain'), {
            message: 'the rainy column may not say "rain" (it would send the roll back to itself)',
          }),
        })
        .strict(),
      fogWindDie: z.array(z.enum(['none', 'fog', 'wind'])).min(2),
      windTypeDie: z.array(z.enum(['none', 'calm', 'highWinds', 'gale'])).min(2),
      persistence: z
        .object({
          sides: z.number().int().min(2),
          fog: z.array(z.number().int().min(1)),
          wind: z.array(z.number().int().min(1)),
        })
        .strict()
        .refine((p) => [...p.fog, ...p.wind].every((f) => f <= p.sides), {
          message: 'persistence faces must lie between 1 and the number of sides',
        }),
    })
    .strict();
}

/**
 * Checks a parsed JSON document against the weather table format. A bad table is refused with
 * the code 'weather.badTable' and every problem found, listed by path.
 */
export function parseWeatherTable(doc: unknown): Result<WeatherTable> {
  tableSchema ??= buildTableSchema();
  const parsed = tableSchema.safeParse(doc);
  if (parsed.success) return ok(parsed.data);
  const problems = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(table)'}: ${i.message}`);
  return fail('weather.badTable', `The weather table is not valid: ${problems.join('; ')}`, { problems });
}

let defaultTable: WeatherTable | undefined;

/**
 * The reconstructed Chainmail table of RULINGS 2a, read from assets/rules/weather-table.json and
 * checked against the format on first use (then kept): the first command after a start does not pay
 * for the check unless it rolls or shows the weather, and the table is never used unchecked.
 */
export function defaultWeatherTable(): WeatherTable {
  if (defaultTable !== undefined) return defaultTable;
  const result = parseWeatherTable(table);
  // The bundled table is project data: if it is broken, that is a bug and must fail loudly.
  if (!result.ok) throw new Error(result.violation.message);
  defaultTable = result.value;
  return defaultTable;
}

/** The column of the table to roll on for the current sky. @see RULINGS 2a */
export function weatherColumn(sky: Sky): WeatherColumn {
  return sky === 'lightRain' || sky === 'hardRain' ? 'rainy' : sky;
}
