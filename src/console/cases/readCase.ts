import { z } from 'zod';

/**
 * One adjudication case (docs/cases/README.md): a Markdown file a referee can write without code.
 * The prose (situation, rule, result) is for people; the `case` block says how to play it and the
 * `console` block holds the console lines, with `?` checks on what the lines before them showed.
 */
export interface Case {
  readonly id: string;
  readonly file: string;
  readonly title: string;
  readonly profile: Profile;
  readonly topic: string;
  readonly sources: readonly string[];
  readonly seed: number;
  readonly dice: readonly number[];
  readonly now: string;
  readonly steps: readonly Step[];
}

const PROFILES = ['valormr', 'acks', 'chapter002', 'warlord'] as const;
type Profile = (typeof PROFILES)[number];

/** Who a check reads: every output, one kind, and optionally one user. */
export interface Reader {
  readonly to: 'any' | 'reply' | 'ephemeral' | 'dm' | 'channel';
  readonly user?: string;
}

export type Check =
  | { readonly verb: 'contains' | 'lacks'; readonly reader: Reader; readonly text: string }
  | { readonly verb: 'matches' | 'lacks'; readonly reader: Reader; readonly pattern: RegExp }
  | { readonly verb: 'error'; readonly reader: Reader; readonly code: string }
  | { readonly verb: 'ok'; readonly reader: Reader };

export type Step =
  | { readonly kind: 'line'; readonly line: number; readonly text: string }
  | { readonly kind: 'check'; readonly line: number; readonly source: string; readonly check: Check };

/** A case file that cannot be read: every problem, each with its line and what is accepted. */
export class CaseFileError extends Error {
  constructor(readonly file: string, readonly problems: readonly string[]) {
    super(`${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The rule texts and rulings a case may cite. */
const SOURCE = /^(000|001|002|003|004|RULINGS|docs\/rulings\.md)\b.+/;

const header = z.object({
  profile: z.enum(PROFILES, { error: `profile must be one of ${PROFILES.join(', ')}` }),
  topic: z.string().min(2, 'topic names the rule area, e.g. "forced march"'),
  seed: z.coerce.number({ error: 'seed is a whole number, e.g. seed: 7' }).int('seed is a whole number, e.g. seed: 7').default(1),
  dice: z.string().default('').transform((s, ctx) => {
    // `1x40` is forty 1s (a quiet sky for a long march).
    const dice = s.split(/[\s,]+/).filter((d) => d !== '').flatMap((d) => {
      const run = /^(\d)x(\d{1,3})$/.exec(d);
      return run ? Array.from({ length: Number(run[2]) }, () => Number(run[1])) : [Number(d)];
    });
    if (dice.some((d) => !Number.isInteger(d) || d < 1 || d > 6)) ctx.addIssue({ code: 'custom', message: `dice are d6 results from 1 to 6 separated by commas, e.g. dice: 3,5,1 (or 1x40 for forty 1s), got "${s}"` });
    return dice;
  }),
  now: z.string().default('2026-11-22T10:00:00Z').refine((s) => !Number.isNaN(Date.parse(s)), 'now is an ISO time, e.g. now: 2026-11-22T18:00Z'),
}).strict();

const CHECK_HELP = 'a check reads `? WHO VERB ...`: WHO is any, reply, ephemeral, dm or channel, optionally followed by @user (or just @user); VERB is contains "text", lacks "text", matches /pattern/flags, lacks /pattern/, error code.name, or ok';

/** Reads a quoted text ("..." with \" escapes) or a /pattern/flags from the start of `s`. */
function literal(s: string): { text: string } | { pattern: RegExp } | { problem: string } {
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(s);
  if (quoted) return { text: (quoted[1] as string).replace(/\\(["\\])/g, '$1') };
  const re = /^\/(.+)\/([a-z]*)$/.exec(s);
  if (re) {
    try {
      return { pattern: new RegExp(re[1] as string, re[2]) };
    } catch (e) {
      return { problem: `the pattern ${s} is not a valid regular expression (${(e as Error).message})` };
    }
  }
  return { problem: `expected "quoted text" or /a pattern/, got ${s === '' ? 'nothing' : s}` };
}

/** Parses one `? ...` check line. */
export function parseCheck(src: string): Check | { problem: string } {
  const words = src.replace(/^\?\s*/, '');
  const m = /^(?:(any|reply|ephemeral|dm|channel)\s+)?(?:@([\w-]+)\s+)?(contains|lacks|matches|error|ok)\b\s*(.*)$/.exec(words);
  if (!m) return { problem: CHECK_HELP };
  const reader: Reader = { to: (m[1] ?? 'any') as Reader['to'], ...(m[2] ? { user: m[2] } : {}) };
  const verb = m[3] as string;
  const rest = (m[4] as string).trim();
  if (verb === 'ok') return rest === '' ? { verb, reader } : { problem: '`ok` takes nothing after it' };
  if (verb === 'error') return /^[a-zA-Z]+(\.[a-zA-Z]+)+$/.test(rest) ? { verb, reader, code: rest } : { problem: `\`error\` takes a refusal code such as move.noPath, got "${rest}"` };
  const lit = literal(rest);
  if ('problem' in lit) return lit;
  if (verb === 'contains') return 'text' in lit ? { verb, reader, text: lit.text } : { problem: '`contains` takes "quoted text"; use `matches` for a /pattern/' };
  if (verb === 'matches') return 'pattern' in lit ? { verb, reader, pattern: lit.pattern } : { problem: '`matches` takes a /pattern/; use `contains` for "quoted text"' };
  return 'text' in lit ? { verb: 'lacks', reader, text: lit.text } : { verb: 'lacks', reader, pattern: lit.pattern };
}

interface Fence {
  readonly lang: string;
  readonly start: number;
  readonly lines: readonly string[];
}

function fences(lines: readonly string[]): Fence[] {
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```\s*([\w-]*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const start = i + 1;
    let j = start;
    while (j < lines.length && !/^```\s*$/.test(lines[j] as string)) j++;
    out.push({ lang: open[1] as string, start, lines: lines.slice(start, j) });
    i = j;
  }
  return out;
}

/** The text of a `## Heading` section, up to the next heading of that level. */
function section(lines: readonly string[], name: string): string[] | undefined {
  const at = lines.findIndex((l) => new RegExp(`^##\\s+${name}\\s*$`, 'i').test(l));
  if (at < 0) return undefined;
  const end = lines.findIndex((l, i) => i > at && /^##\s/.test(l));
  return lines.slice(at + 1, end < 0 ? undefined : end);
}

/** The case's number (from the file name) and title (from its first heading). */
function nameAndTitle(file: string, lines: readonly string[], problems: string[]): { id?: string; title?: string } {
  const name = file.split('/').pop() ?? file;
  const id = /^(\d{3})-[a-z0-9-]+\.md$/.exec(name)?.[1];
  if (!id) problems.push(`the file name is NNN-words.md (three digits, then lowercase words joined by dashes), got ${name}`);
  const titleLine = lines.find((l) => /^#\s/.test(l));
  const title = /^#\s+Case\s+(\d+)[.:]\s+(.+)$/.exec(titleLine ?? '');
  if (!title) problems.push('the first heading reads `# Case N. What happens`, N being the file\'s number');
  else if (id && Number(title[1]) !== Number(id)) problems.push(`the heading says case ${title[1]} but the file name says ${id}`);
  return { id, title: title ? (title[2] as string).trim() : undefined };
}

/** The Situation, Rule and Result sections, and the Rule's quote and sources. */
function ruleSources(lines: readonly string[], problems: string[]): string[] {
  for (const s of ['Situation', 'Rule', 'Result']) if (!section(lines, s)?.some((l) => l.trim() !== '')) problems.push(`a "## ${s}" section with some text is needed`);
  const rule = section(lines, 'Rule') ?? [];
  if (!rule.some((l) => /^>\s*\S/.test(l))) problems.push('the Rule section quotes the text (a line starting with "> ")');
  const sources = rule.filter((l) => /^Source:/i.test(l)).map((l) => l.replace(/^Source:\s*/i, '').trim());
  if (sources.length === 0) problems.push('the Rule section names where the quote is from: `Source: 004 Movement of Large Armies` (000-004, RULINGS or docs/rulings.md, then the section)');
  for (const s of sources) if (!SOURCE.test(s)) problems.push(`Source "${s}" should start with the text (000, 001, 002, 003, 004, RULINGS or docs/rulings.md) and name its section`);
  return sources;
}

/** The `key: value` lines of the case block, checked against the header schema. */
function caseHeader(block: Fence | undefined, problems: string[]): ReturnType<typeof header.safeParse> {
  const fields: Record<string, string> = {};
  for (const [i, l] of (block?.lines ?? []).entries()) {
    if (l.trim() === '' || l.trim().startsWith('#')) continue;
    const kv = /^([a-z]+):\s*(.*)$/.exec(l.trim());
    if (!kv) problems.push(`line ${(block?.start ?? 0) + i + 1}: the case block holds \`key: value\` lines, got "${l.trim()}"`);
    else fields[kv[1] as string] = (kv[2] as string).trim();
  }
  const parsed = header.safeParse(fields);
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push(`case block${issue.path.length ? `, ${issue.path.join('.')}` : ''}: ${issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}; the keys are profile, topic, seed, dice, now` : issue.message}`);
  return parsed;
}

/** The console block's lines and `?` checks, in order. */
function consoleSteps(block: Fence | undefined, problems: string[]): Step[] {
  const steps: Step[] = [];
  for (const [i, raw] of (block?.lines ?? []).entries()) {
    const line = (block?.start ?? 0) + i + 1;
    const text = raw.trim();
    if (text === '') continue;
    if (text.startsWith('?')) {
      if (!steps.some((s) => s.kind === 'line')) problems.push(`line ${line}: a check reads what the console lines before it showed; put it after one`);
      const check = parseCheck(text);
      if ('problem' in check) problems.push(`line ${line}: ${check.problem}`);
      else steps.push({ kind: 'check', line, source: text, check });
    } else steps.push({ kind: 'line', line, text });
  }
  if (block && !steps.some((s) => s.kind === 'check')) problems.push('the console block has no `?` check: a case must say what the bot shows');
  return steps;
}

/**
 * Reads and checks one case file. Throws a CaseFileError listing every problem (line, what is
 * wrong, what is accepted) rather than stopping at the first.
 */
export function readCase(file: string, markdown: string): Case {
  const lines = markdown.split(/\r?\n/);
  const problems: string[] = [];
  const { id, title } = nameAndTitle(file, lines, problems);
  const sources = ruleSources(lines, problems);
  const blocks = fences(lines);
  const caseBlocks = blocks.filter((b) => b.lang === 'case');
  const consoleBlocks = blocks.filter((b) => b.lang === 'console');
  if (caseBlocks.length !== 1) problems.push(`one \`\`\`case block is needed (profile, topic, and optionally seed, dice, now), found ${caseBlocks.length}`);
  if (consoleBlocks.length !== 1) problems.push(`one \`\`\`console block is needed (the console lines and their ? checks), found ${consoleBlocks.length}`);
  const parsed = caseHeader(caseBlocks[0], problems);
  const steps = consoleSteps(consoleBlocks[0], problems);
  if (problems.length > 0 || !parsed.success || !id || title === undefined) throw new CaseFileError(file, problems);
  return { id, file, title, ...parsed.data, sources, steps };
}
