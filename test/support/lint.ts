import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCheckovSkips } from '../../lib/app/lint-acknowledgements';
import { CACHED_VARIANTS } from './synth';
import { cachedAssembly, cachedStacks } from './synth-cache';

/*
 * Templates through the linters a reviewer would run: CDK's built-in CloudFormation validation
 * and cdk-nag's AwsSolutions pack through CDK's Validations API (both run when the run's synth
 * cache is built: test/support/synth-cache.ts), then one cfn-lint process over every template
 * and one checkov process over the same set, each with a deliberately broken template beside
 * them that it must fail on. The linters' results are kept beside the synth cache, under a key
 * of the linters' installed versions and this file, so a run with nothing changed reads them.
 */
const ROOT = join(__dirname, '../..');
const CFN_LINT = join(ROOT, '.venv/bin/cfn-lint');
const CHECKOV = join(ROOT, '.venv-checkov/bin/checkov');

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
async function checkov(files: readonly string[]): Promise<{ summary: Record<string, unknown>; results: Record<'failed_checks' | 'skipped_checks' | 'parsing_errors', CheckovResult[]> }> {
  const r = await run(CHECKOV, ['--framework', 'cloudformation', '--skip-download', '--compact', '--output', 'json', ...files.flatMap((f) => ['--file', f])]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`checkov exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
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
  for (const venv of [join(ROOT, '.venv'), join(ROOT, '.venv-checkov')]) {
    const lib = join(venv, 'lib');
    if (!existsSync(lib)) continue;
    for (const python of readdirSync(lib)) hash.update(readdirSync(join(lib, python, 'site-packages')).filter((d) => d.endsWith('.dist-info')).sort().join('\n'));
  }
  return hash.digest('hex').slice(0, 16);
}

interface LintResults {
  readonly cfnLint: Run;
  readonly checkov: Awaited<ReturnType<typeof checkov>>;
  readonly badCfnLint: string;
  readonly badCheckov: string;
  readonly flowLogGroupId: string;
}

/** One cfn-lint and one checkov process over every template plus its broken control. */
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
  const templates = all.flatMap((a) => a.templates);
  const [cfn, ck] = await Promise.all([cfnLint([...templates, badCfnLint]), checkov([...templates, badCheckov])]);
  return { cfnLint: cfn, checkov: ck, badCfnLint, badCheckov, flowLogGroupId };
}

/** The linters' results for today's templates: read from the synth cache, or run once and kept there. */
async function lintResults(work: string): Promise<LintResults> {
  const file = join(process.env.SYNTH_CACHE_DIR ?? work, `lint-${lintKey()}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const results = await runLinters(work);
  writeFileSync(file, JSON.stringify(results));
  return results;
}

export function lintSuite(): void {
  const work = mkdtempSync(join(tmpdir(), 'lint-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const lints = lintResults(work);
  // Awaited by the tests below; a rejection nobody awaited yet must not crash the worker.
  lints.catch(() => undefined);

  const reports = () =>
    assemblies().map((a) => ({ context: a.context, plugins: JSON.parse(readFileSync(join(a.outdir, 'validation-report.json'), 'utf8')).pluginReports as any[] }));

  test('every variant is linted: each scenario, renamed (envName), unprotected, and each fleet state', () => {
    expect(assemblies().flatMap((a) => a.templates)).toHaveLength(2 * CACHED_VARIANTS.length);
  });

  test('CDK validation and cdk-nag find nothing unacknowledged', () => {
    for (const { context, plugins } of reports()) {
      expect(plugins.map((p) => p.pluginName).sort()).toEqual(['AwsSolutions', 'CloudFormation Validate']);
      for (const plugin of plugins) expect({ ...context, plugin: plugin.pluginName, violations: plugin.violations }).toEqual({ ...context, plugin: plugin.pluginName, violations: [] });
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
        expect({ ...context, rule: v.ruleName, acknowledgedId: v.acknowledgedId }).toEqual({ ...context, rule: v.ruleName, acknowledgedId: expect.stringContaining(v.ruleName) });
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
  }, 180_000);

  test('cfn-lint is able to fail', async () => {
    const { r, control } = await cfnLintLines();
    expect(r.status).not.toBe(0);
    expect(control.join('\n')).toMatch(/E3002.*EnableDnsHostname/);
  }, 180_000);

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
    for (const s of results.skipped_checks) expect(listed.has(`${s.check_id}: ${s.check_result.suppress_comment}`) ? s.check_id : `${s.check_id} on ${s.resource}`).toBe(s.check_id);
  }, 180_000);

  test('checkov is able to fail', async () => {
    const { control } = await checkovFailures();
    const { flowLogGroupId } = await lints;
    expect(control.map((f) => `${f.check_id} ${f.resource}`)).toEqual([`CKV_AWS_158 AWS::Logs::LogGroup.${flowLogGroupId}`]);
  }, 180_000);
}
