/**
 * docs/deploy.md followed step by step on a fresh clone, against the fake Discord on loopback:
 * the systemd recipe and the Docker recipe, each from its `<!-- recipe: NAME -->` block, line by
 * line. Each step is done as written where this machine can (git clone, npm run build, the deploy
 * command, the unit's ExecStart, the image's CMD) and stood in for where it cannot (no systemd, no
 * Docker engine, no network): the doc's "Checked here" section lists what is done with each step.
 * A step this test does not know fails it, so the doc cannot drift from what is tested. The end
 * is the bot answering `/help`, a command that only the recipe's deploy step registered.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { ROOT } from './botProcess.js';
import { sharedBuild } from '../support/sharedBuild.js';
import { loadConfig, shardList } from '../../src/config.js';

const DOC = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
const base = mkdtempSync(join(tmpdir(), 'valormr-deploydoc-'));
const running: ChildProcess[] = [];

afterAll(async () => {
  await Promise.all(running.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => new Promise<void>((res) => {
    c.once('exit', () => res());
    c.kill('SIGKILL');
  })));
  rmSync(base, { recursive: true, force: true });
});

/** The shell lines of the block after `<!-- recipe: name -->`. */
function recipe(name: string): string[] {
  const at = DOC.indexOf(`<!-- recipe: ${name} -->`);
  expect(at, `docs/deploy.md has no recipe ${name}`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(DOC.slice(at))!;
  return block[1]!.split('\n').filter((l) => l.trim() !== '');
}

/**
 * `npm run build` in `dir`, done once per distinct input in the run (tests/support/sharedBuild.ts):
 * both recipes build the same sources (the clone, and the Docker build stage's copies of it), and
 * so does the checkout's own prestart build (tests/process/start.test.ts), so a build whose every
 * input is byte-identical to one done already is that build's dist/, and a real build otherwise (a
 * Dockerfile that forgot a COPY changes the inputs and builds for real, and fails as the image
 * would). A build that compiled a file from outside src/ and commands/ (which the Docker stage
 * might not copy) is caught: dist/ may hold nothing else.
 */
function buildOnce(dir: string): void {
  sharedBuild(dir, () => run('npm', ['run', 'build', '--silent'], dir));
  expect(readdirSync(join(dir, 'dist')).filter((f) => !f.startsWith('.')).sort(), 'dist/ holds only what src/ and commands/ compile to, and the copied assets').toEqual(['assets', 'commands', 'migrations', 'migrations-pg', 'src']);
}

/** KEY=value lines (comments and blanks skipped), as systemd's EnvironmentFile= and docker's --env-file read them. */
function envFile(text: string): Record<string, string> {
  return Object.fromEntries(text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#') && l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** Runs to the end; fails the test with the output when it does not exit 0. */
function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, [...args], { cwd, env, encoding: 'utf8', timeout: 600_000 });
  expect(r.status, `${cmd} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return `${r.stdout}${r.stderr}`;
}

/** Runs to the end without blocking this process (the fake Discord answers from it); fails the test unless it exits 0. */
function runAsync(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', rej);
    child.once('exit', (code) => (code === 0 ? res(out) : rej(new Error(`node ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

/** A long-running process (the service), its output collected; resolves once a line matches. */
function serve(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): { ready: (match: string) => Promise<void>; output: () => string } {
  const child = spawn(process.execPath, [...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return {
    output: () => out,
    ready: (match) => new Promise((res, rej) => {
      const timer = setInterval(() => {
        if (out.includes(match)) {
          clearInterval(timer);
          res();
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          rej(new Error(`the service exited (${child.exitCode}):\n${out}`));
        }
      }, 100);
    }),
  };
}

/** The environment file the operator writes ("then put DISCORD_TOKEN=... and DISCORD_CLIENT_ID=... in it"), pointed at the fake. */
const operatorEnv = (fake: FakeDiscord): string => [`DISCORD_TOKEN=${fake.token}`, `DISCORD_CLIENT_ID=${fake.appId}`, `DISCORD_API_BASE=${fake.restApi}`, 'WEB=off', 'LOG_LEVEL=info', ''].join('\n');

/** A clean environment for the processes a step starts: no settings leak in from the test runner. */
const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...extra });

/** Asks the running bot `/help` through the fake Discord; resolves with the answer's text. */
async function help(fake: FakeDiscord): Promise<string> {
  expect(fake.calls.some((c) => c.method === 'PUT' && c.path.includes(`/applications/${fake.appId}/commands`) && c.status === 200), 'the commands registered by the recipe').toBe(true);
  const id = fake.pushCommand({ command: 'help', userId: PEOPLE.referee.id });
  const answer = await fake.waitForAnswer(id, 1, 120_000);
  return answer.messages.map((m) => m.content).join('\n');
}

/** Splits a doc line into its steps (`a && b`), without the trailing comment. */
const stepsOf = (line: string): string[][] => line.replace(/\s+#.*$/, '').split('&&').map((s) => s.trim().split(/\s+/)).filter((s) => s.length > 0 && s[0] !== '');

describe('docs/deploy.md\'s settings for N machines on one PostgreSQL', () => {
  it('GIVEN the "every machine" lines and each machine\'s own WHEN each machine\'s settings are read as the bot reads them THEN each is accepted, runs PostgreSQL, and the machines\' shard lists cover every shard of the total once', () => {
    const at = DOC.indexOf('<!-- machines -->');
    expect(at, 'docs/deploy.md has no <!-- machines --> block').toBeGreaterThanOrEqual(0);
    const block = /```\n([\s\S]*?)```/.exec(DOC.slice(at))![1]!;
    const sections = block.split(/^# /m).filter((x) => x.trim() !== '').map((x) => ({ name: x.slice(0, x.indexOf('\n')).trim(), env: envFile(x.slice(x.indexOf('\n') + 1)) }));
    const common = sections.find((x) => x.name === 'every machine')!;
    const machines = sections.filter((x) => x !== common);
    expect(common, 'an "every machine" section').toBeDefined();
    expect(machines.length).toBeGreaterThanOrEqual(2);
    const covered: number[] = [];
    for (const m of machines) {
      // The doc's placeholders stand for real values.
      const env = Object.fromEntries(Object.entries({ ...common.env, ...m.env }).map(([k, v]) => [k, v.startsWith('<') ? 'x'.repeat(40) : v]));
      const config = loadConfig(env);
      expect(config.DATABASE_URL, m.name).toMatch(/^postgres:\/\//);
      expect(config.WEB_SECRET, `${m.name}: the web links need one secret on every machine`).toBeDefined();
      covered.push(...shardList(config.SHARD_LIST, Number(config.SHARDS))!);
    }
    const total = Number(common.env.SHARDS);
    expect(covered.sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i));
  });
});

describe('docs/deploy.md, followed step by step on a fresh clone', () => {
  it('GIVEN the systemd recipe WHEN each line is followed THEN the commands are registered from the unit\'s environment file and the unit\'s ExecStart answers /help', async () => {
    const fake = await FakeDiscord.start({ users: Object.values(PEOPLE) });
    const root = join(base, 'systemd');
    // The machine's paths, under a temporary root.
    const map = (p: string): string => (p.startsWith('/opt/') || p.startsWith('/etc/') || p.startsWith('/var/lib/') ? join(root, p) : p);
    mkdirSync(join(root, 'etc', 'systemd', 'system'), { recursive: true });
    let cwd = root;
    let service: ReturnType<typeof serve> | undefined;
    const done: string[] = [];
    try {
      for (const line of recipe('systemd')) {
        for (let words of stepsOf(line)) {
          if (words[0] === 'sudo') words = words[1] === '-u' ? words.slice(3) : words.slice(1);
          const [cmd, ...args] = words;
          const step = words.join(' ');
          done.push(step);
          if (cmd === 'useradd') continue; // one process as the current user
          if (cmd === 'git' && args[0] === 'clone') {
            expect(args[1]).toBe('<repo>');
            run('git', ['clone', '--quiet', ROOT, map(args[2]!)], root);
          } else if (cmd === 'cd') {
            cwd = map(args[0]!);
          } else if (cmd === 'npm' && args[0] === 'ci') {
            symlinkSync(join(ROOT, 'node_modules'), join(cwd, 'node_modules'));
          } else if (cmd === 'npm' && args[0] === 'run' && args[1] === 'build') {
            buildOnce(cwd);
          } else if (cmd === 'npm' && args[0] === 'prune') {
            continue; // would prune the checkout's own modules
          } else if (cmd === 'install' && args.at(-1) === '/etc/valormr.env') {
            writeFileSync(map(args.at(-1)!), operatorEnv(fake), { mode: 0o600 });
          } else if (cmd === 'node') {
            const out = await runAsync(args.map(map), cwd, cleanEnv());
            expect(out).toContain('Registered');
          } else if (cmd === 'cp') {
            const to = map(args[1]!);
            cpSync(resolve(cwd, args[0]!), to.endsWith('/') ? join(to, args[0]!.split('/').at(-1)!) : to);
          } else if (cmd === 'systemctl' && args[0] === 'daemon-reload') {
            continue;
          } else if (cmd === 'systemctl' && args[0] === 'enable' && args[1] === '--now') {
            const unit = readFileSync(join(root, 'etc', 'systemd', 'system', `${args[2]}.service`), 'utf8');
            const values = (key: string): string[] => unit.split('\n').filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
            const environment = Object.fromEntries(values('Environment').map((v) => [v.slice(0, v.indexOf('=')), map(v.slice(v.indexOf('=') + 1))]));
            // EnvironmentFile= wins over Environment=, as in systemd.
            const fromFile = envFile(readFileSync(map(values('EnvironmentFile')[0]!), 'utf8'));
            const [exe, ...execArgs] = values('ExecStart')[0]!.split(/\s+/);
            expect(exe).toBe('/usr/bin/node');
            mkdirSync(dirname(environment.DATABASE_PATH!), { recursive: true }); // StateDirectory=
            service = serve(execArgs, map(values('WorkingDirectory')[0]!), cleanEnv({ ...environment, ...fromFile, DOTENV_CONFIG_PATH: join(root, 'no.env') }));
          } else {
            throw new Error(`docs/deploy.md's systemd recipe has a step this test cannot follow: ${step}`);
          }
        }
      }
      expect(service, 'the recipe starts the service').toBeDefined();
      await service!.ready('"bot ready"');
      expect(service!.output()).toContain(`database ${join(root, 'var/lib/valormr/valormr.db')}`);
      expect(await help(fake)).toContain('/move');
      console.info(`systemd recipe followed: ${done.length} steps`);
    } finally {
      await fake.close();
    }
  }, 600_000);

  it('GIVEN the Docker recipe WHEN each line is followed (the image assembled from the Dockerfile\'s own COPY, RUN, ENV and CMD) THEN the deploy line in the image registers the commands and the image\'s CMD answers /help', async () => {
    const fake = await FakeDiscord.start({ users: Object.values(PEOPLE) });
    const root = join(base, 'docker');
    const clone = join(root, 'clone');
    run('git', ['clone', '--quiet', ROOT, clone], base);
    const dockerfile = readFileSync(join(clone, 'Dockerfile'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    const stages = dockerfile.reduce<string[][]>((acc, l) => (l.startsWith('FROM ') ? [...acc, [l]] : (acc.at(-1)!.push(l), acc)), []);
    expect(stages).toHaveLength(2);
    const image = join(root, 'image');
    const volumes = new Map<string, string>();
    let service: ReturnType<typeof serve> | undefined;
    /** The image's ENV (a continued line joined), its CMD. */
    const runStage = stages[1]!.join('\n').replace(/\\\n\s*/g, ' ').split('\n');
    const imageEnv: Record<string, string> = {};
    for (const l of runStage.filter((x) => x.startsWith('ENV '))) for (const [, k, v] of l.slice(4).matchAll(/(\w+)=(\S+)/g)) imageEnv[k!] = v!;
    const cmd = JSON.parse(runStage.find((l) => l.startsWith('CMD '))!.slice(4)) as string[];
    try {
      for (const line of recipe('docker')) {
        for (const words of stepsOf(line)) {
          const [first, ...args] = words;
          if (first === 'cp') {
            cpSync(join(clone, args[0]!), join(clone, args[1]!));
            // "then put DISCORD_TOKEN=... and DISCORD_CLIENT_ID=... in it"
            writeFileSync(join(clone, args[1]!), `${readFileSync(join(clone, args[1]!), 'utf8')}\n${operatorEnv(fake)}`);
          } else if (first === 'docker' && args[0] === 'build') {
            // Build stage: exactly what it COPYs, then its RUN lines.
            const build = join(root, 'build');
            mkdirSync(build, { recursive: true });
            for (const l of stages[0]!) {
              if (l.startsWith('COPY ')) {
                const parts = l.slice(5).trim().split(/\s+/);
                const to = parts.pop()!;
                for (const from of parts) cpSync(join(clone, from), to.endsWith('/') ? join(build, to, from) : join(build, to), { recursive: true });
              } else if (l.startsWith('RUN ')) {
                for (const step of l.slice(4).split('&&').map((s) => s.trim().split(/\s+/))) {
                  if (step.join(' ') === 'npm ci') symlinkSync(join(ROOT, 'node_modules'), join(build, 'node_modules'));
                  else if (step.join(' ') === 'npm run build') buildOnce(build);
                  else if (step[0] === 'npm' && step[1] === 'prune') continue; // would prune the checkout's own modules
                  else throw new Error(`the Dockerfile's build stage has a step this test cannot follow: ${step.join(' ')}`);
                }
              } else if (!/^(FROM|WORKDIR) /.test(l)) {
                throw new Error(`the Dockerfile's build stage has a line this test cannot follow: ${l}`);
              }
            }
            // Run stage: only what it copies from the build stage.
            mkdirSync(image, { recursive: true });
            for (const l of runStage.filter((x) => x.startsWith('COPY '))) {
              const m = /^COPY --from=build \/app\/(\S+) (\S+)$/.exec(l);
              if (!m) throw new Error(`the Dockerfile's run stage copies something this test cannot follow: ${l}`);
              const target = join(image, m[2] === './' ? m[1]! : m[2]!.replace(/^\.\//, ''));
              if (m[1] === 'node_modules') symlinkSync(join(ROOT, 'node_modules'), target);
              else cpSync(join(build, m[1]!), target, { recursive: true });
            }
            expect(existsSync(join(image, 'src')), 'the image holds no sources').toBe(false);
          } else if (first === 'docker' && args[0] === 'run') {
            let i = 1;
            const env: Record<string, string> = { ...imageEnv };
            let detached = false;
            for (; i < args.length && args[i]!.startsWith('-'); i++) {
              const flag = args[i]!;
              if (flag === '--env-file') Object.assign(env, envFile(readFileSync(join(clone, args[++i]!), 'utf8')));
              else if (flag === '-v') {
                const [volume, at] = args[++i]!.split(':');
                if (!volumes.has(volume!)) volumes.set(volume!, mkdtempSync(join(root, 'volume-')));
                env.__VOLUME_AT = at!;
                env.__VOLUME_DIR = volumes.get(volume!)!;
              } else if (flag === '--name' || flag === '--restart') i++;
              else if (flag === '-d') detached = true;
              else if (flag === '--rm') continue;
              else throw new Error(`docker run flag this test cannot follow: ${flag}`);
            }
            expect(args[i]).toBe('valormr');
            const command = args.length > i + 1 ? args.slice(i + 1) : cmd;
            const { __VOLUME_AT: at, __VOLUME_DIR: dir, ...rest } = env;
            // The volume's mount point, mapped to its directory; without a volume, /data is the image's own (a temporary directory here).
            const dataDir = dir ?? mkdtempSync(join(root, 'data-'));
            const mapped = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v.startsWith(`${at ?? '/data'}/`) ? join(dataDir, v.slice((at ?? '/data').length)) : v]));
            expect(command[0]).toBe('node');
            if (detached) service = serve(command.slice(1), image, cleanEnv({ ...mapped, DOTENV_CONFIG_PATH: join(root, 'no.env') }));
            else expect(await runAsync(command.slice(1), image, cleanEnv(mapped))).toContain('Registered');
          } else {
            throw new Error(`docs/deploy.md's Docker recipe has a step this test cannot follow: ${words.join(' ')}`);
          }
        }
      }
      expect(service, 'the recipe starts the container').toBeDefined();
      await service!.ready('"bot ready"');
      // The database is in the volume (a copied .env.example must not move it out).
      expect(service!.output()).toMatch(/database \S+volume-\w+\/valormr\.db/);
      expect(await help(fake)).toContain('/move');
    } finally {
      await fake.close();
    }
  }, 600_000);
});
