import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudFormationValidatePlugin, type IPolicyValidationContext, type PolicyValidationPluginReport } from 'aws-cdk-lib/core';
import { findingsOf, KeptValidation, reportOf } from './kept-validation';
import { tempDir } from './temp-dir';

/* The synth cache's validation, each template's result kept (./kept-validation.ts): what it answers is what CDK's plugin answered. */

const A = '/out/A.template.json';
const B = '/out/B.template.json';

/**
 * A report over two templates as the plugin builds one, template by template: a violation is
 * opened by the first template with its rule, severity and description, and later ones join it.
 */
const REPORT: PolicyValidationPluginReport = {
  success: false,
  violations: [
    {
      ruleName: 'W3010',
      description: 'pinned zone',
      severity: 'warning',
      violatingResources: [
        { resourceLogicalId: 'SubnetA', templatePath: A, locations: ['Properties.AvailabilityZone'] },
        { resourceLogicalId: 'SubnetC', templatePath: A, locations: ['Properties.AvailabilityZone'] },
        { resourceLogicalId: 'SubnetB', templatePath: B, locations: ['Properties.AvailabilityZone'] },
      ],
    },
    { ruleName: 'W3010', description: 'pinned zone', severity: 'error', violatingResources: [{ constructPath: 'Stack', templatePath: A, locations: [] }] },
    {
      ruleName: 'E3002',
      description: 'unknown property',
      severity: 'error',
      fix: 'remove it',
      violatingResources: [{ resourceLogicalId: 'Vpc', templatePath: B, locations: [] }],
    },
  ],
};

test("a report split into each template's findings and joined again is the report, in its order", () => {
  expect(reportOf([...findingsOf(REPORT, A), ...findingsOf(REPORT, B)])).toEqual(REPORT);
  expect(findingsOf(REPORT, A).map((f) => f.resource.resourceLogicalId ?? f.resource.constructPath)).toEqual(['SubnetA', 'SubnetC', 'Stack']);
  // One template's findings alone: its own verdict (a warning is no failure).
  expect(reportOf(findingsOf(REPORT, A)).success).toBe(false);
  expect(reportOf(findingsOf({ ...REPORT, violations: [REPORT.violations[0]] }, A)).success).toBe(true);
});

describe('KeptValidation', () => {
  const dir = tempDir('kept-validation-');
  const [a, b] = ['A', 'B'].map((n) => join(dir, `${n}.template.json`));
  const context = (): IPolicyValidationContext => ({
    templatePaths: [a, b],
    stackTemplates: [
      { stackConstructPath: 'A', templatePath: a, accountId: undefined, region: undefined },
      { stackConstructPath: 'B', templatePath: b, accountId: undefined, region: undefined },
    ],
    appConstruct: undefined as never,
  });
  /** What CDK's plugin would say of these two templates: REPORT, at their paths. */
  const engine = jest.spyOn(CloudFormationValidatePlugin.prototype, 'validate').mockImplementation((c): PolicyValidationPluginReport =>
    structuredClone({
      ...REPORT,
      violations: REPORT.violations.map((v) => ({
        ...v,
        violatingResources: v.violatingResources.map((r) => ({ ...r, templatePath: r.templatePath === A ? c.templatePaths[0] : c.templatePaths[1] })),
      })),
    }),
  );
  jest.spyOn(CloudFormationValidatePlugin.prototype, 'version', 'get').mockReturnValue('9.9.9');
  afterAll(() => jest.restoreAllMocks());

  test('validates an app the first time, answers it from what it kept the second, without the engine, the same', () => {
    writeFileSync(a, '{"Resources":{}}');
    writeFileSync(b, '{"Resources":{"Vpc":{}}}');
    const cacheRoot = join(dir, 'cache');
    const first = new KeptValidation(cacheRoot).validate(context());
    expect(engine).toHaveBeenCalledTimes(1);
    const plugin = new KeptValidation(cacheRoot);
    const second = plugin.validate(context());
    expect(engine).toHaveBeenCalledTimes(1);
    expect(JSON.parse(JSON.stringify(second))).toEqual(JSON.parse(JSON.stringify(first)));
    expect(second.violations[0].violatingResources.map((r) => r.templatePath)).toEqual([a, a, b]);
    expect(plugin.version).toBe('9.9.9');
  });

  test('a template changed by one byte, or the same template as another stack, is validated again, with the app', () => {
    const cacheRoot = join(dir, 'changed');
    writeFileSync(a, '{"Resources":{}}');
    writeFileSync(b, '{"Resources":{"Vpc":{}}}');
    new KeptValidation(cacheRoot).validate(context());
    const calls = engine.mock.calls.length;
    writeFileSync(b, '{"Resources":{"Vpc":{} }}');
    new KeptValidation(cacheRoot).validate(context());
    expect(engine).toHaveBeenCalledTimes(calls + 1);
    expect(engine.mock.calls.at(-1)![0].templatePaths).toEqual([a, b]);
    const renamed = context();
    new KeptValidation(cacheRoot).validate({
      ...renamed,
      stackTemplates: [renamed.stackTemplates[0], { ...renamed.stackTemplates[1], stackConstructPath: 'C' }],
    });
    expect(engine).toHaveBeenCalledTimes(calls + 2);
  });
});
