import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CONTROL_TOWER_METADATA,
  CONTROL_TOWER_RULES,
  type ControlTowerAcknowledgement,
  loadCheckovSkips,
} from '../../lib/platform/constructs/lint-acknowledgements';
import { CACHED_VARIANTS } from './synth';
import { cachedAssembly, cachedStacks } from './synth-cache';

/*
 * Templates through the linters a reviewer would run: CDK's built-in CloudFormation validation
 * and cdk-nag's AwsSolutions pack through CDK's Validations API (both run when the run's synth
 * cache is built: test/support/synth-cache.ts), then one cfn-lint process over every template
 * and one checkov process over the same set, each with a deliberately broken template beside
 * them that it must fail on. Each template's findings are kept under its content hash, in a
 * folder named for the linters' installed versions and this file (their settings): a change
 * re-lints only the templates it changed, and a stale result cannot be found.
 */
const ROOT = join(__dirname, '../..');
const CFN_LINT = join(ROOT, '.venv/bin/cfn-lint');
const CHECKOV = join(ROOT, '.venv-checkov/bin/checkov');
/** AWS Control Tower's proactive controls as AWS ships them for cfn-guard, with the guard binary, in one pinned npm package. */
const CT_PACKAGE = join(ROOT, 'node_modules/@cdklabs/cdk-validator-cfnguard');
const CFN_GUARD = join(CT_PACKAGE, 'bin/ubuntu', process.arch === 'arm64' ? 'aarch64' : 'x86_64', 'cfn-guard');
const CT_RULES = join(CT_PACKAGE, 'rules/control-tower/cfn-guard');

interface CheckovResult {
  readonly check_id: string;
  readonly resource: string;
  readonly file_abs_path: string;
  readonly check_result: { readonly result: string; readonly suppress_comment?: string };
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A linter run in the background, so that cfn-lint and checkov share the suite's wall time. */
function run(tool: string, args: readonly string[]): Promise<Run> {
  if (!existsSync(tool)) return Promise.reject(new Error(`${tool} is not installed: run \`npm run setup\` (creates .venv and .venv-checkov)`));
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

const cfnLint = (files: readonly string[]) => run(CFN_LINT, ['--format', 'parseable', '--', ...files]);

/** checkov over CloudFormation templates, offline: its JSON results (exit 1 only means "failed checks"). */
async function checkov(
  files: readonly string[],
): Promise<{ summary: Record<string, unknown>; results: Record<'failed_checks' | 'skipped_checks' | 'parsing_errors', CheckovResult[]> }> {
  const r = await run(CHECKOV, ['--framework', 'cloudformation', '--skip-download', '--compact', '--output', 'json', ...files.flatMap((f) => ['--file', f])]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`checkov exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** One template's findings from cfn-guard's structured output: "<rule> <logical id>", each once. */
interface GuardFile {
  readonly name: string;
  readonly not_compliant?: unknown[];
}
function guardFindings(file: GuardFile): string[] {
  const found = new Set<string>();
  for (const finding of file.not_compliant ?? []) {
    const rule = (finding as { Rule?: { name?: string } }).Rule?.name ?? 'unnamed rule';
    // The resources a failed rule names: any path into /Resources/<id> in its clauses.
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object')
        for (const [k, v] of Object.entries(x)) {
          if (k === 'path' && typeof v === 'string' && v.startsWith('/Resources/')) found.add(`${rule} ${v.split('/')[2]}`);
          else walk(v);
        }
    };
    walk(finding);
  }
  return [...found].sort();
}

/** Every Control Tower rule file, with the resource types it names (each file judges the resources of its types); read once. */
let ruleFiles: { readonly file: string; readonly types: readonly string[] }[] | undefined;
function controlTowerRuleFiles(): { readonly file: string; readonly types: readonly string[] }[] {
  return (ruleFiles ??= readdirSync(CT_RULES)
    .sort()
    .flatMap((dir) =>
      readdirSync(join(CT_RULES, dir))
        .sort()
        .map((f) => join(CT_RULES, dir, f)),
    )
    .map((file) => ({ file, types: [...new Set(readFileSync(file, 'utf8').match(/(?<=")AWS::[A-Za-z0-9]+::[A-Za-z0-9]+(?=")/g) ?? [])] })));
}

/**
 * The rule files that can judge a template with these resource types: those naming one of its
 * types, and those naming none. A file whose types are all absent passes whatever else the
 * template holds (its rules run only when resources of its types exist; the test "a Control
 * Tower rule file fails nothing on a template without its resource types" holds every file of
 * the pinned set to that), so leaving it out is the same judgement for a quarter of the work.
 */
function controlTowerRulesFor(types: ReadonlySet<string>): string[] {
  return controlTowerRuleFiles()
    .filter((r) => r.types.length === 0 || r.types.some((t) => types.has(t)))
    .map((r) => r.file);
}

/** cfn-guard with the given rules over templates: each file's findings. */
async function guard(rules: readonly string[], files: readonly string[]): Promise<Map<string, string[]>> {
  const r = await run(CFN_GUARD, [
    'validate',
    ...rules.flatMap((f) => ['--rules', f]),
    '--structured',
    '--output-format',
    'json',
    '--show-summary',
    'none',
    ...files.flatMap((f) => ['--data', f]),
  ]);
  // 0: all pass, 19: some rule failed; anything else did not run.
  if (r.status !== 0 && r.status !== 19) throw new Error(`cfn-guard exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  const results = JSON.parse(r.stdout) as GuardFile[];
  return new Map(files.map((f) => [f, guardFindings(results.find((x) => x.name === f) ?? { name: f })]));
}

/** Templates grouped by the Control Tower rule files that can judge them, with their resource types. */
function controlTowerGroups(files: readonly string[]): { rules: string[]; types: Set<string>; files: string[] }[] {
  const groups = new Map<string, { rules: string[]; types: Set<string>; files: string[] }>();
  for (const f of files) {
    const types = new Set(Object.values<{ Type: string }>(JSON.parse(readFileSync(f, 'utf8')).Resources ?? {}).map((r) => r.Type));
    const rules = controlTowerRulesFor(types);
    const key = rules.join('\n');
    const group = groups.get(key) ?? { rules, types: new Set<string>(), files: [] };
    for (const t of types) group.types.add(t);
    group.files.push(f);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** AWS's Control Tower rules over templates, each template judged by the rule files that can judge it: each file's findings. */
async function controlTower(files: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const { rules, files: group } of controlTowerGroups(files)) for (const [f, found] of await guard(rules, group)) out.set(f, found);
  return out;
}

/** A copy of `template` with one resource changed by `edit`, written to `file`: the linters' negative controls. */
function broken(template: Record<string, any>, file: string, edit: (resources: Record<string, any>) => void): string {
  const bad = structuredClone(template);
  edit(bad.Resources);
  writeFileSync(file, JSON.stringify(bad));
  return file;
}

/** Every cached variant's assembly, both stacks' templates, and its validation report. */
function assemblies() {
  return CACHED_VARIANTS.map((context) => {
    const outdir = cachedAssembly(context);
    if (!outdir) throw new Error(`no cached synth of ${JSON.stringify(context)}: run the lint suite through Jest (its globalSetup builds the cache)`);
    const { data, observability } = cachedStacks(outdir);
    return { context, outdir, template: data.templateFile, templates: [data.templateFile, observability.templateFile] };
  });
}

/** The linters' installed versions and this file: what, besides the templates, their results depend on. */
function lintKey(): string {
  const hash = createHash('sha256').update(readFileSync(__filename));
  if (existsSync(CT_PACKAGE)) hash.update(readFileSync(join(CT_PACKAGE, 'package.json'))).update(readFileSync(join(CT_PACKAGE, 'guard-version.json')));
  for (const venv of [join(ROOT, '.venv'), join(ROOT, '.venv-checkov')]) {
    const lib = join(venv, 'lib');
    if (!existsSync(lib)) continue;
    for (const python of readdirSync(lib))
      hash.update(
        readdirSync(join(lib, python, 'site-packages'))
          .filter((d) => d.endsWith('.dist-info'))
          .sort()
          .join('\n'),
      );
  }
  return hash.digest('hex').slice(0, 16);
}

interface LintResults {
  readonly cfnLint: Run;
  readonly checkov: Awaited<ReturnType<typeof checkov>>;
  readonly badCfnLint: string;
  readonly badCheckov: string;
  readonly flowLogGroupId: string;
  /** Every template's Control Tower findings, by file; the broken control's among them. */
  readonly controlTower: ReadonlyMap<string, readonly string[]>;
  readonly badControlTower: string;
  readonly loggedClusterId: string;
  /** The templates grouped by the Control Tower rule files that judged them. */
  readonly controlTowerGroups: ReturnType<typeof controlTowerGroups>;
}

/** cfn-lint's exit status bits for its findings: errors 2, warnings 4, informational 8. */
const CFN_LINT_LEVEL: Record<string, number> = { E: 2, W: 4, I: 8 };

/** One template's findings, kept under its content hash: the path is written as this placeholder. */
const HERE = '<template>';
interface TemplateLint {
  readonly cfnLint: readonly string[];
  readonly controlTower: readonly string[];
  readonly checkov: { readonly failed: CheckovResult[]; readonly skipped: CheckovResult[]; readonly parsingError: boolean; readonly resources: number };
}

/** Where each template's results are kept: by the linters' versions and this file, outside any one source state. */
function lintCacheDir(): string {
  const dir = join(process.env.LINT_CACHE_DIR ?? join(ROOT, 'node_modules/.cache/db-bench-infra/lint'), lintKey());
  mkdirSync(dir, { recursive: true });
  return dir;
}

const contentHash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 32);

/**
 * Lints the templates no earlier run has linted (by content: a template that did not change
 * is not linted again), one cfn-lint and one checkov process over all of them, and keeps each
 * template's findings under its hash.
 */
async function lintTemplates(files: readonly string[]): Promise<Map<string, TemplateLint>> {
  const dir = lintCacheDir();
  const hashes = new Map(files.map((f) => [f, contentHash(f)]));
  const cached = (f: string) => join(dir, `${hashes.get(f)}.json`);
  const todo = [...new Set(files.filter((f) => !existsSync(cached(f))))];
  if (todo.length) {
    // cfn-lint is single-threaded and the slower of the two (about 1 CPU-second per template):
    // two processes over halves of the list end with checkov rather than after it.
    const half = Math.ceil(todo.length / 2);
    const halves = [todo.slice(0, half), todo.slice(half)].filter((p) => p.length);
    const [cfnRuns, ck, ct] = await Promise.all([
      Promise.all(halves.map(cfnLint)),
      checkov(todo),
      // cfn-guard is single-threaded too: halves as well.
      existsSync(CFN_GUARD)
        ? Promise.all(halves.map(controlTower)).then((maps) => new Map(maps.flatMap((m) => [...m])))
        : Promise.reject(new Error(`${CFN_GUARD} is not installed: run \`npm ci\` (@cdklabs/cdk-validator-cfnguard ships it)`)),
    ]);
    const cfn: Run = {
      status: cfnRuns.reduce((bits, r) => (r.status === null || bits === null ? null : bits | r.status), 0 as number | null),
      stdout: cfnRuns.map((r) => r.stdout).join(''),
      stderr: cfnRuns.map((r) => r.stderr).join(''),
    };
    // A linter that could not run leaves nothing behind to be read as a pass.
    if (cfn.stderr || ![0, 2, 4, 6, 8, 10, 12, 14].includes(cfn.status ?? -1)) throw new Error(`cfn-lint exited ${cfn.status}: ${cfn.stderr}`);
    const lines = cfn.stdout.split('\n').filter(Boolean);
    for (const f of todo) {
      const mine = (r: CheckovResult) => r.file_abs_path === f;
      const failed = ck.results.failed_checks.filter(mine);
      const skipped = ck.results.skipped_checks.filter(mine);
      const passed = (ck.results as Record<string, CheckovResult[] | undefined>).passed_checks?.filter(mine) ?? [];
      const result: TemplateLint = {
        cfnLint: lines.filter((l) => l.startsWith(`${f}:`)).map((l) => HERE + l.slice(f.length)),
        controlTower: ct.get(f)!,
        checkov: {
          failed: failed.map((r) => ({ ...r, file_abs_path: HERE })),
          skipped: skipped.map((r) => ({ ...r, file_abs_path: HERE })),
          parsingError: (ck.results.parsing_errors as unknown as string[]).includes(f),
          resources: new Set([...failed, ...skipped, ...passed].map((r) => r.resource)).size,
        },
      };
      writeFileSync(cached(f), JSON.stringify(result));
    }
  }
  return new Map(files.map((f) => [f, JSON.parse(readFileSync(cached(f), 'utf8')) as TemplateLint]));
}

/** Every template and its broken controls, linted (or read from earlier runs), as one run's results. */
async function runLinters(work: string): Promise<LintResults> {
  const all = assemblies();
  // The first VPC with a misspelled property (cfn-lint) and its flow-log group without its key (checkov).
  const first = JSON.parse(readFileSync(all[0].template, 'utf8'));
  const vpcOf = (resources: Record<string, any>) => Object.values(resources).find((r) => r.Type === 'AWS::EC2::VPC')!;
  const [flowLogGroupId] = Object.entries(first.Resources as Record<string, any>).find(
    ([, r]) => r.Type === 'AWS::Logs::LogGroup' && r.Metadata?.['aws:cdk:path']?.endsWith('/RejectedTrafficLogs/Resource'),
  )!;
  const badCfnLint = broken(first, join(work, 'bad-cfn-lint.template.json'), (r) => (vpcOf(r).Properties.EnableDnsHostname = true));
  const badCheckov = broken(first, join(work, 'bad-checkov.template.json'), (r) => delete r[flowLogGroupId].Properties.KmsKeyId);
  // The first Aurora cluster without its log export (CT.RDS.PR.25).
  const [loggedClusterId] = Object.entries(first.Resources as Record<string, any>).find(([, r]) => r.Type === 'AWS::RDS::DBCluster')!;
  const badControlTower = broken(first, join(work, 'bad-control-tower.template.json'), (r) => delete r[loggedClusterId].Properties.EnableCloudwatchLogsExports);
  const files = [...all.flatMap((a) => a.templates), badCfnLint, badCheckov, badControlTower];
  const linted = await lintTemplates(files);
  const at = (f: string) => linted.get(f)!;
  // Each template's findings under its own path, as one run over all of them would print them.
  const lines = files.flatMap((f) => at(f).cfnLint.map((l) => f + l.slice(HERE.length)));
  const status = lines.reduce((bits, l) => bits | (CFN_LINT_LEVEL[/:([EWI])\d{4}:/.exec(l)?.[1] ?? ''] ?? 0), 0);
  const here = (f: string) => (r: CheckovResult) => ({ ...r, file_abs_path: f });
  return {
    cfnLint: { status, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' },
    checkov: {
      summary: { resource_count: files.reduce((n, f) => n + at(f).checkov.resources, 0) },
      results: {
        failed_checks: files.flatMap((f) => at(f).checkov.failed.map(here(f))),
        skipped_checks: files.flatMap((f) => at(f).checkov.skipped.map(here(f))),
        parsing_errors: files.filter((f) => at(f).checkov.parsingError) as unknown as CheckovResult[],
      },
    },
    badCfnLint,
    badCheckov,
    flowLogGroupId,
    controlTower: new Map(files.map((f) => [f, at(f).controlTower])),
    badControlTower,
    loggedClusterId,
    controlTowerGroups: controlTowerGroups(files),
  };
}

export function lintSuite(): void {
  const work = mkdtempSync(join(tmpdir(), 'lint-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const lints = runLinters(work);
  // Awaited by the tests below; a rejection nobody awaited yet must not crash the worker.
  lints.catch(() => undefined);

  const reports = () =>
    assemblies().map((a) => ({
      context: a.context,
      plugins: JSON.parse(readFileSync(join(a.outdir, 'validation-report.json'), 'utf8')).pluginReports as any[],
    }));

  test('every variant is linted: each scenario, renamed (envName), unprotected, and each fleet state', () => {
    expect(assemblies().flatMap((a) => a.templates)).toHaveLength(2 * CACHED_VARIANTS.length);
  });

  test('CDK validation and cdk-nag find nothing unacknowledged', () => {
    for (const { context, plugins } of reports()) {
      expect(plugins.map((p) => p.pluginName).sort()).toEqual(['AwsSolutions', 'CloudFormation Validate']);
      for (const plugin of plugins)
        expect({ ...context, plugin: plugin.pluginName, violations: plugin.violations }).toEqual({ ...context, plugin: plugin.pluginName, violations: [] });
    }
  });

  test("CDK validation acknowledges only the pinned-zone rule, and the shell expansions of the schema mover's command", () => {
    for (const { plugins } of reports()) {
      const cfn = plugins.find((p) => p.pluginName === 'CloudFormation Validate');
      const rules = [...new Set(cfn.suppressedViolations.map((v: { ruleName: string }) => v.ruleName))].sort();
      expect(rules.filter((r) => r !== 'E1029')).toEqual(['W3010']);
      for (const v of cfn.suppressedViolations.filter((x: { ruleName: string }) => x.ruleName === 'E1029'))
        for (const c of v.violatingConstructs) expect(c.constructPath).toMatch(/\/SchemaMover\/Task\/Resource$/);
    }
  });

  test('every cdk-nag acknowledgement names its rule and resource and gives a reason', () => {
    for (const { context, plugins } of reports()) {
      const nag = plugins.find((p) => p.pluginName === 'AwsSolutions');
      expect(nag.suppressedViolations.length).toBeGreaterThan(0);
      for (const v of nag.suppressedViolations) {
        expect({ ...context, rule: v.ruleName, acknowledgedId: v.acknowledgedId }).toEqual({
          ...context,
          rule: v.ruleName,
          acknowledgedId: expect.stringContaining(v.ruleName),
        });
        expect(v.violatingConstructs.length).toBeGreaterThan(0);
        expect({ rule: v.ruleName, reason: v.reason.length >= 60 }).toEqual({ rule: v.ruleName, reason: true });
      }
    }
  });

  /** cfn-lint's parseable lines, by whether they name the broken control. */
  const cfnLintLines = async () => {
    const { cfnLint: r, badCfnLint } = await lints;
    const lines = r.stdout.split('\n').filter(Boolean);
    return { r, control: lines.filter((l) => l.startsWith(`${badCfnLint}:`)), others: lines.filter((l) => !l.startsWith(`${badCfnLint}:`)) };
  };

  test('cfn-lint reports 0 errors and 0 warnings on every template (data and observability stacks)', async () => {
    const { r, others } = await cfnLintLines();
    expect(others).toEqual([]);
    expect(r.stderr).toBe('');
  }, 600_000);

  test('cfn-lint is able to fail', async () => {
    const { r, control } = await cfnLintLines();
    expect(r.status).not.toBe(0);
    expect(control.join('\n')).toMatch(/E3002.*EnableDnsHostname/);
  }, 600_000);

  const checkovFailures = async () => {
    const { checkov: c, badCheckov } = await lints;
    const failed = c.results.failed_checks;
    return { ...c, control: failed.filter((f) => f.file_abs_path === badCheckov), others: failed.filter((f) => f.file_abs_path !== badCheckov) };
  };

  test('checkov finds 0 failed checks on every template; each skip is an entry of checkov-skips.yaml', async () => {
    const { summary, results, others } = await checkovFailures();
    expect(results.parsing_errors).toEqual([]);
    expect(others.map((f) => `${f.check_id} ${f.resource} (${f.file_abs_path})`)).toEqual([]);
    expect(summary.resource_count).toBeGreaterThan(0);
    const listed = new Set(loadCheckovSkips().map((s) => `${s.check}: ${s.reason}`));
    expect(results.skipped_checks.length).toBeGreaterThan(0);
    for (const s of results.skipped_checks)
      expect(listed.has(`${s.check_id}: ${s.check_result.suppress_comment}`) ? s.check_id : `${s.check_id} on ${s.resource}`).toBe(s.check_id);
  }, 600_000);

  /** Every rule of the pinned Control Tower rule set, by its name: the control it implements (`[CT.X.PR.n]` in its messages). */
  const controlOfRule = (): Map<string, string> => {
    const out = new Map<string, string>();
    for (const dir of readdirSync(CT_RULES))
      for (const file of readdirSync(join(CT_RULES, dir))) {
        const text = readFileSync(join(CT_RULES, dir, file), 'utf8');
        const rule = /Rule Identifier:\s*#\s*(\S+)/.exec(text)?.[1];
        const control = /\[(CT\.[A-Z0-9]+\.PR\.\d+)\]/.exec(text)?.[1];
        if (rule && control) out.set(rule, control);
      }
    return out;
  };

  /** A template's resources' Control Tower acknowledgements, as "<rule> <logical id>". */
  const acknowledgedIn = (file: string): Map<string, ControlTowerAcknowledgement> => {
    const resources = JSON.parse(readFileSync(file, 'utf8')).Resources as Record<string, any>;
    const out = new Map<string, ControlTowerAcknowledgement>();
    for (const [id, r] of Object.entries(resources))
      for (const a of (r.Metadata?.[CONTROL_TOWER_METADATA] ?? []) as ControlTowerAcknowledgement[]) out.set(`${a.rule} ${id}`, a);
    return out;
  };

  /** "<rule> <construct path below the stack>" for a finding or acknowledgement of `file`: the same resource in every variant. */
  const described = (file: string) => {
    const resources = JSON.parse(readFileSync(file, 'utf8')).Resources as Record<string, any>;
    return (entry: string) => {
      const [rule, id] = entry.split(' ');
      const path = (resources[id]?.Metadata?.['aws:cdk:path'] as string | undefined)?.split('/').slice(1).join('/');
      return `${rule} ${path ?? id}`;
    };
  };

  /** Findings no acknowledgement on their resource covers, and acknowledgements no finding needs, over the given templates. */
  const controlTowerAudit = async (which: (file: string) => boolean) => {
    const { controlTower: ct } = await lints;
    const unacknowledged = new Set<string>();
    const stale = new Set<string>();
    for (const [file, findings] of ct) {
      if (!which(file)) continue;
      const acks = acknowledgedIn(file);
      const say = described(file);
      for (const f of findings) if (!acks.has(f)) unacknowledged.add(say(f));
      for (const a of acks.keys()) if (!findings.includes(a)) stale.add(say(a));
    }
    return { unacknowledged: [...unacknowledged].sort(), stale: [...stale].sort() };
  };
  const linted = async (file: string) => {
    const { badCheckov, badCfnLint, badControlTower } = await lints;
    return ![badCheckov, badCfnLint, badControlTower].includes(file);
  };

  test("AWS Control Tower's proactive controls (cfn-guard, the rules AWS ships, pinned): every finding is acknowledged on its resource, and every acknowledgement answers a finding", async () => {
    const { controlTower: ct } = await lints;
    const files = new Set<string>();
    for (const f of ct.keys()) if (await linted(f)) files.add(f);
    expect(await controlTowerAudit((f) => files.has(f))).toEqual({ unacknowledged: [], stale: [] });
  }, 600_000);

  test('every Control Tower acknowledgement names the control its rule implements and gives a reason', async () => {
    const { controlTower: ct } = await lints;
    const controls = controlOfRule();
    expect(controls.size).toBeGreaterThan(200);
    for (const [control, rule] of Object.entries(CONTROL_TOWER_RULES)) expect({ rule, control: controls.get(rule) }).toEqual({ rule, control });
    const used = new Set<string>();
    for (const file of ct.keys())
      for (const a of acknowledgedIn(file).values()) {
        used.add(a.control);
        expect({ rule: a.rule, control: a.control, reason: a.reason.length >= 60 }).toEqual({ rule: a.rule, control: controls.get(a.rule), reason: true });
      }
    // No entry of the table is left unused.
    expect([...used].sort()).toEqual(Object.keys(CONTROL_TOWER_RULES).sort());
  }, 600_000);

  test('the acknowledgement check is able to fail: a finding on a resource without its acknowledgement is named', async () => {
    const { badControlTower, loggedClusterId } = await lints;
    expect((await controlTowerAudit((f) => f === badControlTower)).unacknowledged).toContain(
      described(badControlTower)(`rds_cluster_logging_enabled_check ${loggedClusterId}`),
    );
  }, 600_000);

  test("each Control Tower rule file left out of a template group's run fails nothing on a resource of every type the group holds: leaving it out is the same judgement", async () => {
    const { controlTowerGroups: groups } = await lints;
    const all = controlTowerRuleFiles();
    expect(all.length).toBeGreaterThan(200);
    for (const [i, { rules, types }] of groups.entries()) {
      const left = all.map((r) => r.file).filter((f) => !rules.includes(f));
      expect(left.length).toBeGreaterThan(0);
      const file = join(work, `group-${i}.template.json`);
      writeFileSync(file, JSON.stringify({ Resources: Object.fromEntries([...types].map((t, n) => [`R${n}`, { Type: t, Properties: {} }])) }));
      expect({ group: i, findings: (await guard(left, [file])).get(file) }).toEqual({ group: i, findings: [] });
    }
  }, 600_000);

  test('that check is able to fail: a rule file given a bare resource of its own type fails it', async () => {
    const rds = controlTowerRuleFiles().find((r) => r.file.endsWith('ct-rds-pr-25.guard'))!;
    const file = join(work, 'bare-cluster.template.json');
    writeFileSync(file, JSON.stringify({ Resources: { Cluster: { Type: rds.types[0], Properties: { Engine: 'aurora-postgresql' } } } }));
    expect((await guard([rds.file], [file])).get(file)).toEqual([`rds_cluster_logging_enabled_check Cluster`]);
  }, 600_000);

  test('the Control Tower rules are able to fail', async () => {
    const { controlTower: ct, badControlTower, loggedClusterId } = await lints;
    expect(ct.get(badControlTower)).toContain(`rds_cluster_logging_enabled_check ${loggedClusterId}`);
  }, 600_000);

  test('checkov is able to fail', async () => {
    const { control } = await checkovFailures();
    const { flowLogGroupId } = await lints;
    expect(control.map((f) => `${f.check_id} ${f.resource}`)).toEqual([`CKV_AWS_158 AWS::Logs::LogGroup.${flowLogGroupId}`]);
  }, 600_000);
}
