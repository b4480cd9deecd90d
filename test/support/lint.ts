import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { loadCheckovSkips } from '../../lib/lint-acknowledgements';
import { buildApp } from './synth';

/*
 * Templates through the linters a reviewer would run: CDK's built-in CloudFormation
 * validation (on here, off in the unit tests for speed), cdk-nag's AwsSolutions pack through
 * CDK's Validations API (synth fails on an unacknowledged finding), cfn-lint, and checkov (offline,
 * skips from checkov-skips.yaml written into the templates by the app). One suite per family,
 * so that Jest runs the two families' (slow) lint in parallel.
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

export function lintSuite(VARIANTS: ReadonlyArray<Record<string, string>>): void {
  delete process.env.CDK_VALIDATION;
  const work = mkdtempSync(join(tmpdir(), 'lint-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const assemblies = VARIANTS.map((context, i) => {
    const outdir = join(work, String(i));
    const { app, stack, observability } = buildApp(context, undefined, outdir);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    try {
      app.synth();
    } catch (e) {
      // A finding stops synth, as it would `cdk synth`; the report it writes is what the tests read.
      if (!existsSync(join(outdir, 'validation-report.json'))) throw e;
    }
    return { context, outdir, template: join(outdir, stack.templateFile), templates: [stack, observability].map((s) => join(outdir, s.templateFile)) };
  });

  // Each family's VPC, with a misspelled property (cfn-lint) and its flow-log group without its key (checkov).
  const first = JSON.parse(readFileSync(assemblies[0].template, 'utf8'));
  const vpcOf = (resources: Record<string, any>) => Object.values(resources).find((r) => r.Type === 'AWS::EC2::VPC')!;
  const [flowLogGroupId] = Object.entries(first.Resources as Record<string, any>).find(
    ([, r]) => r.Type === 'AWS::Logs::LogGroup' && r.Metadata?.['aws:cdk:path']?.endsWith('/RejectedTrafficLogs/Resource'),
  )!;
  const templates = assemblies.flatMap((a) => a.templates);
  const lints = {
    cfnLint: cfnLint(templates),
    checkov: checkov(templates),
    cfnLintBroken: cfnLint([broken(first, join(work, 'bad-cfn-lint.template.json'), (r) => (vpcOf(r).Properties.EnableDnsHostname = true))]),
    checkovBroken: checkov([broken(first, join(work, 'bad-checkov.template.json'), (r) => delete r[flowLogGroupId].Properties.KmsKeyId)]),
  };
  // Awaited by the tests below; a rejection nobody awaited yet must not crash the worker.
  for (const p of Object.values(lints)) p.catch(() => undefined);

  const reports = () =>
    assemblies.map((a) => ({ context: a.context, plugins: JSON.parse(readFileSync(join(a.outdir, 'validation-report.json'), 'utf8')).pluginReports as any[] }));

  test('CDK validation and cdk-nag find nothing unacknowledged', () => {
    for (const { context, plugins } of reports()) {
      expect(plugins.map((p) => p.pluginName).sort()).toEqual(['AwsSolutions', 'CloudFormation Validate']);
      for (const plugin of plugins) expect({ ...context, plugin: plugin.pluginName, violations: plugin.violations }).toEqual({ ...context, plugin: plugin.pluginName, violations: [] });
    }
  }, 60_000);

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

  test('cfn-lint reports 0 errors and 0 warnings on every template (data and observability stacks)', async () => {
    const r = await lints.cfnLint;
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 180_000);

  test('cfn-lint is able to fail', async () => {
    const r = await lints.cfnLintBroken;
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/E3002.*EnableDnsHostname/);
  }, 180_000);

  test('checkov finds 0 failed checks on every template; each skip is an entry of checkov-skips.yaml', async () => {
    const { summary, results } = await lints.checkov;
    expect(results.parsing_errors).toEqual([]);
    expect(results.failed_checks.map((f) => `${f.check_id} ${f.resource} (${f.file_abs_path})`)).toEqual([]);
    expect(summary.resource_count).toBeGreaterThan(0);
    const listed = new Set(loadCheckovSkips().map((s) => `${s.check}: ${s.reason}`));
    expect(results.skipped_checks.length).toBeGreaterThan(0);
    for (const s of results.skipped_checks) expect(listed.has(`${s.check_id}: ${s.check_result.suppress_comment}`) ? s.check_id : `${s.check_id} on ${s.resource}`).toBe(s.check_id);
  }, 180_000);

  test('checkov is able to fail', async () => {
    const { results } = await lints.checkovBroken;
    expect(results.failed_checks.map((f) => `${f.check_id} ${f.resource}`)).toEqual([`CKV_AWS_158 AWS::Logs::LogGroup.${flowLogGroupId}`]);
  }, 180_000);
}
