import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * src/db/pg/bridgeWorker.ts compiled to JavaScript once for the test run, for bridgeWorkerBoot.mjs
 * to load instead of registering tsx in every new bridge worker (most of a second each; the tests
 * open a bridge for every app on PostgreSQL). Kept in node_modules/.cache (where `pg` resolves
 * from), named by the source's hash. Undefined (each worker compiles through tsx, as outside the
 * tests) when the worker imports a module of ours at run time, which a single compiled file cannot.
 */
export function compileBridgeWorker(): string | undefined {
  const source = readFileSync(join(ROOT, 'src/db/pg/bridgeWorker.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  });
  if (/^\s*import\s[^;]*?from\s+['"]\./m.test(outputText) || /import\(\s*['"]\./.test(outputText)) return undefined;
  const dir = join(ROOT, 'node_modules/.cache/valormr-tests');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bridgeWorker-${createHash('sha256').update(outputText).digest('hex').slice(0, 16)}.mjs`);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, outputText);
  renameSync(partial, file);
  return pathToFileURL(file).href;
}
