import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliInProcess } from '../support/cli';

/* The companion commands as one program: the same --version, exit codes in every help, the shared options declared once. */

const BIN = join(__dirname, '../../bin');
const COMMANDS = readdirSync(BIN).filter((f) => f.endsWith('.ts') && !['app.ts', 'preload.ts'].includes(f));
const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));

test('every command is here', () => {
  expect(COMMANDS.length).toBeGreaterThanOrEqual(11);
});

test.each(COMMANDS)('%s --version prints the package version', async (script) => {
  const r = await runCliInProcess(script, ['--version']);
  expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: `${version}\n` });
});

test.each(COMMANDS)('%s --help ends with its exit codes, 0 and 1 first, 2 where it calls AWS', async (script) => {
  const r = await runCliInProcess(script, ['--help']);
  expect(r.status).toBe(0);
  const codes = r.stdout.slice(r.stdout.lastIndexOf('\nExit codes:\n')).split('\n').slice(2).filter(Boolean);
  expect(codes.slice(0, 2)).toEqual(['  0  done', '  1  bad input: a scenario, an option or a file, named with what is valid']);
  // A command whose run function reaches AWS clients must list 2; one that never does must not.
  const source = readFileSync(join(BIN, script), 'utf8');
  const runModule = /from '(\.\.\/lib\/(?:(?:[^/']+\/)?commands\/[^']+|campaign)\/run-[^']+)'/.exec(source)![1];
  const run = readFileSync(join(BIN, `${runModule}.ts`), 'utf8');
  expect({ script, aws: codes.some((c) => c.startsWith('  2  ')) }).toEqual({ script, aws: /load-clients|CommandDeps/.test(run) });
});

test('the shared options are declared once, in lib/commands/shared/cli.ts, and nowhere in bin/', () => {
  for (const script of COMMANDS) {
    const source = readFileSync(join(BIN, script), 'utf8');
    expect({ script, declared: source.match(/'(-s, )?--(scenario|env-name|endpoint-url|json)\b/g) }).toEqual({ script, declared: null });
  }
});

/** The commands that change nothing in AWS or on disk beyond their own output: each prints JSON on request. */
const READ_ONLY: readonly [string, ...string[]][] = [
  ['scenarios.ts'],
  ['preflight.ts'],
  ['engine-versions.ts'],
  ['cost.ts'],
  ['plan.ts'],
  ['capacity.ts'],
  ['report.ts'],
  ['bench.ts', 'status'],
  ['environment.ts', 'status'],
];

test.each(READ_ONLY)('%s %s offers --json', async (script, ...sub) => {
  const r = await runCliInProcess(script, [...sub, '--help']);
  expect(r.stdout).toMatch(/^\s+--json\s/m);
});

test('the shared options are resolved once: no command resolves --scenario or builds its AWS target itself', () => {
  const lib = join(BIN, '../lib');
  const files = (readdirSync(lib, { recursive: true }) as string[])
    .map((f) => `lib/${f}`)
    .filter((f) => /^lib\/([^/]+\/)?commands\/.+\.ts$/.test(f) && f !== 'lib/commands/shared/target.ts');
  expect(files.length).toBeGreaterThan(50);
  const resolvesItself = (text: string) =>
    /resolveScenarioOf\(|resolveScenario\(\{ scenario: o\.|region: \w+\.env\.region, endpoint: o\.endpointUrl/.test(text);
  expect(files.filter((f) => resolvesItself(readFileSync(join(BIN, '..', f), 'utf8')))).toEqual([]);
  // What it looks for, in the forms a command once wrote it.
  expect(resolvesItself("resolveScenarioOf('temporal', { scenario: o.scenario }, u)")).toBe(true);
  expect(resolvesItself('const target = { region: scenario.env.region, endpoint: o.endpointUrl };')).toBe(true);
});

/** A command's help, parsed: its subcommands (with a placeholder for each argument they require) and its options that take a value. */
function fromHelp(help: string): { subcommands: string[][]; valueOptions: string[] } {
  const section = (title: string) => {
    const at = help.indexOf(`\n${title}:\n`);
    return at < 0
      ? []
      : help
          .slice(at + title.length + 3)
          .split('\n\n')[0]
          .split('\n');
  };
  const subcommands = section('Commands')
    .map((l) => /^ {2}([a-z][\w-]*)((?: \[options\])?(?: <[^>]+>)*)/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && m[1] !== 'help')
    .map((m) => [m[1], ...(m[2].match(/<[^>]+>/g) ?? []).map(() => 'x')]);
  const valueOptions = section('Options')
    .map((l) => /^ {2}(?:-\w, )?(--[a-z][\w-]*) [<[]/.exec(l)?.[1])
    .filter((o): o is string => o !== undefined);
  return { subcommands, valueOptions };
}

test('an empty value for any option of any command or subcommand is refused in one line naming the option, exit 1, never a stack trace', async () => {
  const swept: string[] = [];
  for (const script of COMMANDS) {
    const top = fromHelp((await runCliInProcess(script, ['--help'])).stdout);
    const invocations = top.subcommands.length ? top.subcommands : [[]];
    for (const sub of invocations) {
      const { valueOptions } = sub.length ? fromHelp((await runCliInProcess(script, [sub[0], '--help'])).stdout) : top;
      for (const option of valueOptions) {
        const args = [...sub, option, ''];
        const r = await runCliInProcess(script, args);
        const lines = r.stderr.trimEnd().split('\n');
        expect({ command: `${script} ${args.join(' ')}`, status: r.status, lines: lines.length }).toEqual({
          command: `${script} ${args.join(' ')}`,
          status: 1,
          lines: 1,
        });
        expect(lines[0]).toMatch(new RegExp(`^error: .*${option}`));
        swept.push(`${script} ${args.join(' ')}`);
      }
    }
  }
  // The sweep found the options: a help it could not read would pass it with nothing tried.
  expect(swept.length).toBeGreaterThan(COMMANDS.length * 2);
  expect(swept).toEqual(expect.arrayContaining(['bench.ts status --scenario ', 'campaign.ts plan x --out ', 'cost.ts --env-name ']));
}, 120_000);
