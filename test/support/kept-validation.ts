import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CloudFormationValidatePlugin, type IPolicyValidationContext, type PolicyValidationPluginReport, type PolicyViolation } from 'aws-cdk-lib/core';

/*
 * CDK's built-in CloudFormation validation for the synth cache's worker, each template's result
 * kept under its content: a source change that leaves a template as it was (most change one
 * family's, or none) does not validate it again. An app whose every template was validated
 * before is answered from what was kept, without starting the engine (a 9 MB WebAssembly module,
 * about 4 CPU-seconds to start); any other is validated whole, as CDK's own plugin does.
 * Registered on an app, it takes the place of the plugin CDK would add, whose name it keeps.
 */

const ROOT = join(__dirname, '../..');
const CDK_LIB = dirname(require.resolve('aws-cdk-lib/package.json'));
/** The engine's package, as aws-cdk-lib resolves it: its version names what judged a kept result. */
const ENGINE_PACKAGE = join(dirname(require.resolve('@aws/cloudformation-validate', { paths: [CDK_LIB] })), 'package.json');

/** One finding on one template, as the plugin reports it but for the template it names. */
export type TemplateFinding = Omit<PolicyViolation, 'violatingResources'> & { readonly resource: PolicyViolation['violatingResources'][number] };

/** A template's findings from a report over many: each violation's resources on that template, in the report's order. */
export function findingsOf(report: PolicyValidationPluginReport, templatePath: string): TemplateFinding[] {
  return report.violations.flatMap(({ violatingResources, ...v }) =>
    violatingResources.filter((r) => r.templatePath === templatePath).map((resource) => ({ ...v, resource })),
  );
}

/**
 * The report the plugin gives for templates whose findings are these, in order: a finding joins
 * the violation of its rule, severity and description, as the plugin groups them.
 */
export function reportOf(findings: readonly TemplateFinding[]): PolicyValidationPluginReport {
  const violations: PolicyViolation[] = [];
  for (const { resource, ...v } of findings) {
    const same = violations.find((x) => x.ruleName === v.ruleName && x.severity === v.severity && x.description === v.description);
    if (same) same.violatingResources.push(resource);
    else violations.push({ ...v, violatingResources: [resource] });
  }
  return { success: violations.every((v) => v.severity !== 'error' && v.severity !== 'fatal'), violations };
}

/** Where a template's findings are written: the template is named by this placeholder. */
const HERE = '<template>';

interface Kept {
  readonly version: string | undefined;
  readonly findings: TemplateFinding[];
}

export class KeptValidation extends CloudFormationValidatePlugin {
  private readonly dir: string;
  private lastVersion: string | undefined;

  /** `cacheRoot`: where results are kept, in a folder named for the engine's and aws-cdk-lib's versions and this code. */
  constructor(cacheRoot: string) {
    super();
    const key = createHash('sha256')
      .update(readFileSync(ENGINE_PACKAGE))
      .update(readFileSync(join(CDK_LIB, 'package.json')))
      .update(readFileSync(__filename))
      .digest('hex')
      .slice(0, 16);
    this.dir = join(cacheRoot, key);
  }

  /** The engine's version as the last report gave it (CDK reads it after validate); the engine's own when none was kept. */
  override get version(): string | undefined {
    return this.lastVersion ?? super.version;
  }

  override validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const files = context.stackTemplates.map((s) =>
      join(
        this.dir,
        `${createHash('sha256')
          .update(JSON.stringify([s.stackConstructPath, s.accountId ?? null, s.region ?? null]))
          .update(readFileSync(s.templatePath))
          .digest('hex')
          .slice(0, 32)}.json`,
      ),
    );
    if (files.length && files.every((f) => existsSync(f))) {
      const kept = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Kept);
      this.lastVersion = kept[0].version;
      return reportOf(
        kept.flatMap((k, i) => k.findings.map((f) => ({ ...f, resource: { ...f.resource, templatePath: context.stackTemplates[i].templatePath } }))),
      );
    }
    const report = super.validate(context);
    this.lastVersion = super.version;
    mkdirSync(this.dir, { recursive: true });
    for (const [i, s] of context.stackTemplates.entries()) {
      const kept: Kept = {
        version: this.lastVersion,
        findings: findingsOf(report, s.templatePath).map((f) => ({ ...f, resource: { ...f.resource, templatePath: HERE } })),
      };
      // Whole or not at all: another run's worker may read it at once.
      const partial = `${files[i]}.${process.pid}.partial`;
      writeFileSync(partial, JSON.stringify(kept));
      renameSync(partial, files[i]);
    }
    return report;
  }
}

/** Where the synth cache's worker keeps validation results: the project's cache, which a cold run starts without. */
export const VALIDATION_CACHE = join(ROOT, 'node_modules/.cache/db-bench-infra/validation');
