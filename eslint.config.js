// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const engineForbiddenModules = [
  'discord.js', '@discordjs/*', 'drizzle-orm', 'drizzle-orm/*', 'better-sqlite3', 'node-cron',
  '@napi-rs/canvas', 'node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'pino',
];

// Outside src/engine, its modules are used through their faces too (src/engine/<module>/index.js).
const engineFace = {
  regex: '(^|/)engine/[a-z]+/(?!index\\.js$)[^/]+$',
  message: 'Use an engine module through its face (src/engine/<module>/index.js); add to that face what others may use.',
};
// Files being rewritten for the season issue (issue 12): they follow the face rule once that lands.
const appNoTransport = { group: ['discord.js', '**/discord/**', '**/console/**'], message: 'The app layer never touches a transport.' };
const transportsNoDb = { group: ['**/db/**', 'drizzle-orm', 'better-sqlite3'], message: 'Transports and commands go through src/app.' };

// Text a user typed (an option, a button's custom id) never indexes a state record directly: a
// plain object answers `__proto__`, `constructor` or `toString` from its prototype. Use byId
// (src/engine/state/byId.ts). Caught: keys that are a call (`text.trim()`), a parameter named for
// text, or a field of parsed input or a button.
const STATE_RECORDS = '/^(armies|contacts|orders|couriers|divisions|operations|members)$/';
const byIdLookups = [
  {
    selector: `MemberExpression[computed=true][object.property.name=${STATE_RECORDS}][property.type=/^(CallExpression|TemplateLiteral)$/]`,
    message: 'Look state up with byId(record, id): a key computed from text may name a prototype property.',
  },
  {
    selector: `MemberExpression[computed=true][object.property.name=${STATE_RECORDS}][property.name=/^(text|[a-z]+Text|arg|args|input|value|raw|option)$/]`,
    message: 'Look state up with byId(record, id): user text may name a prototype property.',
  },
  {
    selector: `MemberExpression[computed=true][object.property.name=${STATE_RECORDS}][property.type="MemberExpression"][property.object.name=/^(input|b|button|parsed|args|opts|options)$/]`,
    message: 'Look state up with byId(record, id): a field of user input or a button may name a prototype property.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'out/**', 'migrations/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The rules engine is pure: no I/O, no clock, no ambient randomness.
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: engineForbiddenModules, message: 'src/engine must stay pure: no I/O, database, Discord or canvas imports.' },
          { group: ['**/app/**', '**/db/**', '**/discord/**', '**/render/**', '**/cron/**', '**/console/**'], message: 'src/engine imports only from src/engine.' },
          {
            // Each engine module's index.ts is its public face: another module may use only what it
            // exports (from a module's folder, or a folder inside it).
            regex: '^(\\.\\./){1,2}[a-z]+/(?!index\\.js$)[^/]+$',
            message: 'Import another engine module through its face (../<module>/index.js); add to that face what other modules may use.',
          },
        ],
      }],
      'no-restricted-properties': ['error',
        { object: 'Math', property: 'random', message: 'Use the injected Dice.' },
        { object: 'Date', property: 'now', message: 'Time comes in as a game-clock value.' },
      ],
      'no-restricted-globals': ['error',
        { name: 'Date', message: 'Time comes in as a game-clock value.' },
        { name: 'process', message: 'The engine has no environment.' },
        { name: 'setTimeout', message: 'The engine has no timers.' },
      ],
    },
  },
  {
    // Every layer keeps the engine's limits: a long function is a sequence of named steps (STYLE.md).
    files: ['src/**/*.ts', 'commands/**/*.ts', 'bench/**/*.ts'],
    rules: {
      complexity: ['error', 25],
      'max-lines-per-function': ['error', 100],
      'max-lines': ['error', 400],
    },
  },
  {
    // Render draws views: engine types, hex math and views, canvas and assets; never the database or Discord.
    files: ['src/render/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/db/**', 'drizzle-orm', 'drizzle-orm/*', 'better-sqlite3'], message: 'src/render draws views; it never reads the database.' },
        { group: ['discord.js', '@discordjs/*', '**/discord/**', '**/console/**', '**/app/**', '**/cron/**', 'node-cron'], message: 'src/render knows no transport, use-case or schedule.' },
        engineFace,
      ] }],
    },
  },
  {
    // The db folder holds schema, client, migrations and repositories: engine types, drizzle, better-sqlite3.
    files: ['src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['discord.js', '@discordjs/*', '**/discord/**', '**/console/**'], message: 'src/db knows no transport.' },
        { group: ['@napi-rs/canvas', '**/render/**'], message: 'src/db stores data; it never draws.' },
        { group: ['node-cron', 'cron-parser', '**/cron/**'], message: 'src/db knows no schedule trigger.' },
        engineFace,
      ] }],
      // One typed path to the database (issue 29): rows are inferred from schema.ts by Drizzle, never
      // typed by hand or cast; SQL the builder cannot say is Drizzle's `sql` template over typed columns.
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
      'no-restricted-syntax': ['error',
        { selector: "MemberExpression[property.name='prepare'][object.type='CallExpression'][object.callee.name='rawSqlite']", message: 'src/db prepares Drizzle queries (perConnection in prepared.ts), never hand-written SQL on the driver; EXPLAIN of a Drizzle query (toSQL) is the one exception.' },
      ],
    },
  },
  {
    files: ['src/app/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [appNoTransport] }],
    },
  },
  {
    files: ['src/app/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [appNoTransport, engineFace] }],
    },
  },
  {
    // Who learns what is decided in one place: only src/app/deliveries makes a DM or a channel post
    // (with `deliver`, which asks the audience function). Elsewhere, call it.
    files: ['src/app/**/*.ts'],
    ignores: ['src/app/deliveries/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "Property[key.name='to'][value.value=/^(dm|channel)$/]",
        message: 'Make deliveries with `deliver` (src/app/deliveries/audience.ts): it decides who may read them.',
      }, ...byIdLookups],
    },
  },
  {
    // The same lookups rule where the deliveries rule does not apply (one rule, so one list each).
    files: ['src/app/deliveries/**/*.ts', 'commands/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...byIdLookups],
    },
  },
  {
    files: ['src/discord/**/*.ts', 'src/console/**/*.ts', 'commands/**/*.ts', 'src/cron/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [transportsNoDb] }],
    },
  },
  {
    files: ['commands/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [transportsNoDb, engineFace] }],
    },
  },
  {
    // The campaign page's script runs in the browser (served from assets/web by src/web).
    files: ['assets/web/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, OpenSeadragon: 'readonly' } },
  },
  {
    // The web transport goes through src/app like the others.
    files: ['src/web/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [transportsNoDb, engineFace] }],
    },
  },
  {
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [engineFace] }],
    },
  },
);
