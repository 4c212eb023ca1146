import { echo } from '../engine/events/index.js';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { App } from '../app/app.js';
import { UserError } from '../app/errors.js';
import type { Command, CommandContext, UploadedFile } from '../../src/app/commandContext.js';

/** Discord's application command option types, as in the builders' JSON. */
const T = { SUB: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 } as const;

interface OptionJson {
  readonly type: number;
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly choices?: readonly { name: string; value: string | number }[];
  readonly options?: readonly OptionJson[];
  readonly min_value?: number;
  readonly max_value?: number;
  readonly min_length?: number;
  readonly max_length?: number;
}

type Value = string | number | boolean | UploadedFile;

/** Who is speaking on the console, and in which (pretend) channel. */
export interface ConsoleWhere {
  readonly guildId: string;
  readonly channelId: string;
  /** Folder `file:` paths are relative to. */
  readonly baseDir: string;
}

/**
 * Checks a console line against the command's slash-command definition (the same one Discord
 * enforces) and builds the transport-neutral context. Refusals say what is accepted.
 */
export function consoleContext(app: App, command: Command, user: string, words: readonly string[], raw: Readonly<Record<string, string>>, where: ConsoleWhere): CommandContext {
  const json = command.data.toJSON() as { name: string; options?: OptionJson[] };
  let options: readonly OptionJson[] = json.options ?? [];
  let subcommand: string | undefined;
  const subs = options.filter((o) => o.type === T.SUB || o.type === T.GROUP);
  const rest = [...words];
  if (subs.length > 0) {
    const word = rest.shift();
    const sub = subs.find((s) => s.name === word);
    if (!sub) throw new UserError('console.subcommand', `/${json.name} needs a subcommand: ${subs.map((s) => s.name).join(', ')}. E.g. \`@${user} /${json.name} ${subs[0]?.name ?? ''}\`.`);
    if (sub.type === T.GROUP) {
      const word2 = rest.shift();
      const inner = (sub.options ?? []).find((s) => s.name === word2);
      if (!inner) throw new UserError('console.subcommand', `/${json.name} ${sub.name} needs one of: ${(sub.options ?? []).map((s) => s.name).join(', ')}.`);
      subcommand = inner.name;
      options = inner.options ?? [];
    } else {
      subcommand = sub.name;
      options = sub.options ?? [];
    }
  }
  const label = `/${json.name}${subcommand ? ` ${subcommand}` : ''}`;
  if (rest.length > 0) throw new UserError('console.stray', `I don't know what ${echo(rest.join(' '))} means in ${label}. Options are written name:value, e.g. ${options[0] ? `\`${options[0].name}:...\`` : '(this command takes none)'}.`);
  const values = new Map<string, Value>();
  for (const [name, text] of Object.entries(raw)) {
    const def = options.find((o) => o.name === name);
    if (!def) throw new UserError('console.unknownOption', `${label} has no option ${echo(name)}. It takes: ${options.map((o) => `${o.name}${o.required ? ' (required)' : ''}`).join(', ') || 'no options'}.`);
    values.set(name, convert(label, def, text, where));
  }
  for (const o of options) {
    if (o.required && !values.has(o.name)) throw new UserError('console.missingOption', missingOption(user, label, o, raw));
  }
  const get = <V extends Value>(name: string, check: (v: Value) => v is V): V | undefined => {
    const v = values.get(name);
    return v !== undefined && check(v) ? v : undefined;
  };
  const isString = (v: Value): v is string => typeof v === 'string';
  const isNumber = (v: Value): v is number => typeof v === 'number';
  const isBool = (v: Value): v is boolean => typeof v === 'boolean';
  const isFile = (v: Value): v is UploadedFile => typeof v === 'object';
  return {
    app,
    userId: user,
    userName: user,
    guildId: where.guildId,
    channelId: where.channelId,
    roleIds: [],
    subcommand,
    string: (n) => get(n, isString),
    integer: (n) => get(n, isNumber),
    number: (n) => get(n, isNumber),
    boolean: (n) => get(n, isBool),
    user: (n) => get(n, isString),
    userLabel: (n) => get(n, isString),
    attachment: (n) => get(n, isFile),
  };
}

/** Reads a `file:` upload; a file that cannot be read is refused naming the file and its folder. */
async function readUpload(label: string, option: string, given: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? (existsSync(dirname(path)) ? 'there is no such file' : 'that folder does not exist')
      : code === 'EISDIR' ? 'it is a folder, not a file'
        : code === 'EACCES' || code === 'EPERM' ? 'I am not allowed to read it'
          : `it cannot be read (${code ?? (e as Error).message})`;
    throw new UserError('console.fileUnreadable', `${label} ${option}:${given}: I cannot read the file ${basename(path)} in the folder ${dirname(path)}: ${why}. A \`${option}:\` path is relative to the script's folder (or the current folder at the prompt).`, { path });
  }
}

/** Refuses a typed option value, saying what is accepted. */
function badValue(label: string, def: OptionJson, text: string, accepted: string): never {
  throw new UserError('console.badValue', `${label}: ${echo(text)} is not a valid ${def.name}; ${accepted}.`);
}

/** What an option accepts, in words, from its definition: its description and its choices or range. */
function accepted(def: OptionJson): string {
  const words = (def.description ?? '').replace(/,? e\.g\. .*$/, '');
  const what = words.toLowerCase() === def.name.toLowerCase() ? '' : words;
  const choices = def.choices ? `one of ${def.choices.map((c) => c.value).join(', ')}` : '';
  const range = def.min_value !== undefined && def.max_value !== undefined ? `from ${def.min_value} to ${def.max_value}` : '';
  return [what, choices, range].filter(Boolean).join(': ');
}

/** A value to show in an example line: the description's own "e.g.", a choice, the least number, true. */
function exampleValue(def: OptionJson): string | undefined {
  if (def.choices?.[0]) return String(def.choices[0].value);
  if (def.type === T.INTEGER || def.type === T.NUMBER) return String(Math.min(Math.max(1, def.min_value ?? 1), def.max_value ?? 1));
  if (def.type === T.BOOLEAN) return 'true';
  if (def.type !== T.STRING) return undefined;
  return /e\.g\. (.+)$/.exec(def.description ?? '')?.[1];
}

/** A required option left out: what it takes and, where the definition gives one, the line with it. */
function missingOption(user: string, label: string, def: OptionJson, raw: Readonly<Record<string, string>>): string {
  const what = accepted(def);
  const value = exampleValue(def);
  const typed = Object.entries(raw).map(([n, v]) => `${n}:${/\s/.test(v) ? `"${v}"` : v}`);
  const line = value === undefined ? '' : ` E.g. \`@${user} ${[label, ...typed, `${def.name}:${value}`].join(' ')}\`.`;
  return `${label} needs \`${def.name}:\`${what ? ` (${what.charAt(0).toLowerCase()}${what.slice(1)})` : ''}.${line}`;
}

function convertNumber(label: string, def: OptionJson, text: string): number {
  const bad = (accepted: string): never => badValue(label, def, text, accepted);
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || (def.type === T.INTEGER && !Number.isInteger(n))) bad(def.type === T.INTEGER ? 'give a whole number' : 'give a number');
  if (def.min_value !== undefined && n < def.min_value) bad(`the smallest accepted is ${def.min_value}`);
  if (def.max_value !== undefined && n > def.max_value) bad(`the largest accepted is ${def.max_value}`);
  if (def.choices && !def.choices.some((c) => c.value === n)) bad(`choose one of ${def.choices.map((c) => c.value).join(', ')}`);
  return n;
}

function convertBoolean(label: string, def: OptionJson, text: string): boolean {
  const t = text.toLowerCase();
  if (['true', 'yes', 'on'].includes(t)) return true;
  if (['false', 'no', 'off'].includes(t)) return false;
  return badValue(label, def, text, 'use true or false');
}

function convertString(label: string, def: OptionJson, text: string): string {
  const bad = (accepted: string): never => badValue(label, def, text, accepted);
  if (def.min_length !== undefined && text.length < def.min_length) bad(`it must be at least ${def.min_length} characters`);
  if (def.max_length !== undefined && text.length > def.max_length) bad(`it may be at most ${def.max_length} characters`);
  if (def.choices) {
    const c = def.choices.find((x) => x.value === text || x.name.toLowerCase() === text.toLowerCase());
    if (!c) bad(`choose one of ${def.choices.map((x) => x.value).join(', ')}`);
    return String(c?.value);
  }
  return text;
}

function convert(label: string, def: OptionJson, text: string, where: ConsoleWhere): Value {
  switch (def.type) {
    case T.INTEGER:
    case T.NUMBER:
      return convertNumber(label, def, text);
    case T.BOOLEAN:
      return convertBoolean(label, def, text);
    case T.USER:
    case T.ROLE:
    case T.CHANNEL:
    case T.MENTIONABLE:
      return text.replace(/^@/, '').replace(/^<@[!&]?(\w+)>$/, '$1');
    case T.ATTACHMENT: {
      const path = resolve(where.baseDir, text);
      return { name: basename(path), text: () => readUpload(label, def.name, text, path) };
    }
    default:
      return convertString(label, def, text);
  }
}
