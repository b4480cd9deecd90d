import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './synth';

/*
 * Templates through the two linters a reviewer would run: CDK's built-in CloudFormation
 * validation (on here, off in the unit tests for speed) and cfn-lint. One suite per family,
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
    app.synth();
    return { context, outdir, template: join(outdir, stack.templateFile), templates: [stack, observability].map((s) => join(outdir, s.templateFile)) };
  });

  test('CDK built-in validation finds nothing, and only the pinned-zone rule is acknowledged', () => {
    for (const a of assemblies) {
      const report = JSON.parse(readFileSync(join(a.outdir, 'validation-report.json'), 'utf8'));
      for (const plugin of report.pluginReports) {
        expect({ ...a.context, plugin: plugin.pluginName, violations: plugin.violations }).toEqual({
          ...a.context,
          plugin: plugin.pluginName,
          violations: [],
        });
        const acknowledged = new Set(plugin.suppressedViolations.map((v: { ruleName: string }) => v.ruleName));
        expect([...acknowledged]).toEqual(['W3010']);
      }
    }
  }, 60_000);

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
