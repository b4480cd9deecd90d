import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTEXT_KEYS, resolveScenario } from '../../config';
import { TEMPORAL_ENVIRONMENT } from '../../config/temporal-environment';
import { type CliResult, runCliInProcess } from '../support/cli';
import { MANUAL, PAGES, README, shellCommands } from '../support/manual';

/*
 * The manual's examples run as written: every shell line in the README and the pages under
 * docs/ is checked against what the
 * project has (npm scripts, command flags, scenarios and context keys, build contexts and the
 * configured image repositories), and the ones that need no AWS account are run, in process
 * through each command's own entry point (test/support/cli.ts).
 */

const ROOT = join(__dirname, '../..');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
const COMMANDS: Record<string, string> = { report: 'report.ts', plan: 'plan.ts', cost: 'cost.ts', capacity: 'capacity.ts', bench: 'bench.ts', move: 'move.ts', scenarios: 'scenarios.ts', 'engine-versions': 'engine-versions.ts', preflight: 'preflight.ts' };

/** Every command in the manual's sh blocks, continuations joined, comments dropped, `&&` split. */
const examples: string[] = shellCommands(MANUAL, 'all');
/** The walkthrough's: run in order on a copy of the repository (test/integration/docs/walkthrough.test.ts), never here, where they would write to config. */
const walkthrough = new Set(shellCommands(MANUAL, 'walkthrough'));

const npmRuns = examples.filter((e) => /^npm (run |test)/.test(e));
const cdk = examples.filter((e) => e.startsWith('npx cdk '));

const helps = new Map<string, Promise<CliResult>>();
const help = (script: string, sub?: string) => {
  const key = `${script} ${sub ?? ''}`;
  if (!helps.has(key)) helps.set(key, runCliInProcess(script, [...(sub ? [sub] : []), '--help']));
  return helps.get(key)!;
};

/** `npm run bench -- run --rate 150` -> { name: 'bench', args: ['run', '--rate', '150'] } */
function parse(example: string) {
  const m = /^npm (?:run )?(\S+)(?: -- (.*))?$/.exec(example)!;
  return { name: m[1], args: (m[2] ?? '').split(/\s+/).filter(Boolean) };
}

test('there are examples to check', () => {
  expect(npmRuns.length).toBeGreaterThan(20);
  expect(cdk.length).toBeGreaterThan(5);
});

test.each(npmRuns)('`%s`: the npm script exists, and so does every flag it passes', async (example) => {
  const { name, args } = parse(example);
  expect(Object.keys(scripts)).toContain(name);
  const script = COMMANDS[name];
  if (!script) return;
  const sub = name === 'bench' ? args[0] : undefined;
  const h = await help(script, sub);
  expect(h.status).toBe(0);
  for (const flag of args.filter((a) => a.startsWith('--'))) expect(`${example}: ${h.stdout.includes(flag)}`).toBe(`${example}: true`);
}, 60_000);

test.each(cdk.filter((e) => /^npx cdk (deploy|destroy)\b/.test(e)))('`%s`: names the stacks (--all): the app has a data and an observability stack, and the CLI refuses to pick', (example) => {
  expect(example).toMatch(/^npx cdk (deploy|destroy) --all /);
});

test.each(cdk.filter((e) => !walkthrough.has(e)))('`%s`: a scenario and context the app accepts', (example) => {
  const context = Object.fromEntries([...example.matchAll(/-c (\S+?)=(\S+)/g)].map((m) => [m[1], m[2]]));
  expect(context.scenario).toBeDefined();
  expect(() => resolveScenario(context)).not.toThrow();
});

test('image builds use the project\'s build contexts and the repositories config names', () => {
  const builds = examples.filter((e) => e.startsWith('docker buildx build'));
  const repositories = examples.filter((e) => e.startsWith('aws ecr create-repository')).map((e) => /--repository-name (\S+)/.exec(e)![1]);
  const images = [...Object.values(TEMPORAL_ENVIRONMENT.images), ...Object.values(TEMPORAL_ENVIRONMENT.auroraPostgresql.images)] as {
    ecr?: { repository: string; tag: string };
  }[];
  const configured = images.flatMap((i) => (i.ecr ? [`${i.ecr.repository}:${i.ecr.tag}`] : []));
  expect(builds).toHaveLength(configured.length);
  for (const b of builds) {
    const [, image, context] = /-t \S+?\/(\S+) (\S+)$/.exec(b)!;
    expect(configured).toContain(image);
    expect(existsSync(join(ROOT, context, 'Dockerfile'))).toBe(true);
    expect(repositories).toContain(image.split(':')[0]);
  }
});

/** Offline examples: no account, no file that only a run would have written. */
const offline = npmRuns.filter((e) => {
  const { name, args } = parse(e);
  if (walkthrough.has(e)) return false;
  if (name === 'plan') return !args.includes('--check-deployed');
  if (name === 'capacity') return true;
  if (name === 'engine-versions') return !args.includes('--refresh');
  // A report a cost example reads must be one the repository ships.
  if (name === 'cost') return !args.includes('--refresh-prices') && (!args.includes('--report') || existsSync(join(ROOT, args[args.indexOf('--report') + 1])));
  return name === 'move' && args.includes('--dry-run');
});

/** What some examples must print, beyond running: the line a reader of that section looks for. */
const PRINTS: Record<string, string> = {
  'npm run plan -- --from test11 --to test12':
    'ServerlessV2ScalingConfiguration: {"MaxCapacity":64,"MinCapacity":0.5} -> {"MaxCapacity":64,"MinCapacity":5} (update in place)',
  'npm run cost -- --scenario temporal-150wps': '| **Total** | **$250.71** |',
  'npm run capacity -- --scenario temporal-150wps': '| benchmark | 4 × m7g.2xlarge |',
  'npm run engine-versions -- --region us-east-1': '| 16.8 | 0-256 ACU (pauses) | r6g, r6i, r7g, r7i, r8g, t4g |',
};

test('every cost example that reads a report reads one the repository ships, and runs', () => {
  const withReport = npmRuns.filter((e) => e.startsWith('npm run cost') && e.includes('--report'));
  expect(withReport.length).toBeGreaterThan(0);
  for (const e of withReport) expect(offline).toContain(e);
});

test('the examples whose output is checked are examples of the manual', () => {
  for (const example of Object.keys(PRINTS)) expect(offline).toContain(example);
});

test.each(offline)('`%s` runs as written (it needs no AWS account)', async (example) => {
  const { name, args } = parse(example);
  const r = await runCliInProcess(COMMANDS[name], args);
  expect({ example, status: r.status, stderr: r.stderr }).toEqual({ example, status: 0, stderr: '' });
  expect(r.stdout.length).toBeGreaterThan(0);
  if (PRINTS[example]) expect(r.stdout).toContain(PRINTS[example]);
}, 60_000);

/** Every flag a command takes, its subcommands' included. */
async function flagsOf(name: string): Promise<Set<string>> {
  const subs = name === 'bench' ? ['status', 'up', 'down', 'run'] : [undefined];
  const helps = await Promise.all(subs.map((sub) => help(COMMANDS[name], sub)));
  return new Set(helps.flatMap((h) => [...h.stdout.matchAll(/--[a-z][a-z0-9-]*/g)].map((m) => m[0])));
}

/**
 * Flags the prose names in inline code: one in a span that starts `npm run <command>` is that
 * command's; any other, in a command's own section (`## <command>: ...`), is the section's.
 * Spans about other tools (npx, aws, docker, node) are theirs.
 */
function proseFlags(text: string): { command: string; flag: string; span: string }[] {
  const found: { command: string; flag: string; span: string }[] = [];
  let section: string | undefined;
  for (const part of text.replace(/```[\s\S]*?```/g, '').split(/^(?=#{2,3} )/m)) {
    const heading = /^#{2,3} ([a-z-]+):/.exec(part);
    section = heading && COMMANDS[heading[1]] ? heading[1] : part.startsWith('## ') || part.startsWith('### ') ? undefined : section;
    for (const [, span] of part.matchAll(/`([^`\n]+)`/g)) {
      const own = /^npm run ([a-z:]+)(?:\s|$)/.exec(span)?.[1];
      // A script (bench:move, bench:tooling) or another tool is not a command's.
      const command = own ? (COMMANDS[own] ? own : undefined) : /^(npx|aws|docker|node|npm)\b/.test(span) ? undefined : section;
      if (!command) continue;
      for (const [flag] of span.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)) found.push({ command, flag, span });
    }
  }
  return found;
}

test('every flag the prose names exists on the command it is named for', async () => {
  const named = [...PAGES.values()].flatMap(proseFlags);
  expect(named.length).toBeGreaterThan(10);
  const missing: string[] = [];
  for (const { command, flag, span } of named) if (!(await flagsOf(command)).has(flag)) missing.push(`${command}: ${flag} (in \`${span}\`)`);
  expect(missing).toEqual([]);
}, 60_000);

test('the context keys the README lists are the ones the app reads', () => {
  const line = /Context keys: ([\s\S]*?)(?:\n\n|\n*$)/.exec(README)![1];
  const listed = [...line.matchAll(/`([a-zA-Z]+)` \(/g)].map((m) => m[1]);
  expect(listed.sort()).toEqual([...CONTEXT_KEYS].sort());
});
