import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from './synth';

/*
 * Templates through the linters a reviewer would run: CDK's built-in CloudFormation
 * validation (on here, off in the unit tests for speed), cdk-nag's AwsSolutions pack through
 * CDK's Validations API (synth fails on an unacknowledged finding), and cfn-lint. One suite per family,
 * so that Jest runs the two families' (slow) lint in parallel.
 */
const ROOT = join(__dirname, '../..');
const CFN_LINT = join(ROOT, '.venv/bin/cfn-lint');

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

  const reports = () =>
    assemblies.map((a) => ({ context: a.context, plugins: JSON.parse(readFileSync(join(a.outdir, 'validation-report.json'), 'utf8')).pluginReports as any[] }));

  test('CDK validation and cdk-nag find nothing unacknowledged', () => {
    for (const { context, plugins } of reports()) {
      expect(plugins.map((p) => p.pluginName).sort()).toEqual(['AwsSolutions', 'CloudFormation Validate']);
      for (const plugin of plugins) expect({ ...context, plugin: plugin.pluginName, violations: plugin.violations }).toEqual({ ...context, plugin: plugin.pluginName, violations: [] });
    }
  }, 60_000);

  test('CDK validation acknowledges only the pinned-zone rule', () => {
    for (const { plugins } of reports()) {
      const cfn = plugins.find((p) => p.pluginName === 'CloudFormation Validate');
      expect([...new Set(cfn.suppressedViolations.map((v: { ruleName: string }) => v.ruleName))]).toEqual(['W3010']);
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

  test('cfn-lint reports 0 errors and 0 warnings on every template (data and observability stacks)', () => {
    if (!existsSync(CFN_LINT)) throw new Error('cfn-lint is not installed: run `npm run setup` (creates .venv)');
    const r = spawnSync(CFN_LINT, ['--format', 'parseable', '--', ...assemblies.flatMap((a) => a.templates)], {
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);

  test('cfn-lint is able to fail', () => {
    const bad = JSON.parse(readFileSync(assemblies[0].template, 'utf8'));
    // The VPC of either family, with a misspelled property.
    const vpc = Object.values(bad.Resources as Record<string, any>).find((r) => r.Type === 'AWS::EC2::VPC')!;
    vpc.Properties.EnableDnsHostname = true;
    const file = join(work, 'bad.template.json');
    writeFileSync(file, JSON.stringify(bad));
    const r = spawnSync(CFN_LINT, ['--format', 'parseable', '--', file], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/E3002.*EnableDnsHostname/);
  }, 60_000);
}
