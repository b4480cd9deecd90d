import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib/core';
import { CATALOG, type Scenario, validatesTemplates } from '../../config';
import { resolveScenario } from '../families';
import type { CatalogInput } from '../../config/catalog-schema';
import { addScenarioStacks, type ScenarioStacks } from './scenario-stacks';

/** cdk.json's context (feature flags) plus path metadata: what the CDK CLI gives the app. */
export const CLI_CONTEXT: Readonly<Record<string, unknown>> = {
  ...JSON.parse(readFileSync(join(__dirname, '../../cdk.json'), 'utf8')).context,
  'aws:cdk:enable-path-metadata': true,
};

/**
 * The app `cdk synth -c <context>` would build, built in process: the same context, the same
 * path through config, no CLI, no credentials. The plan command and the tests use it.
 */
export function scenarioApp(context: Record<string, string>, catalog: CatalogInput = CATALOG, outdir?: string): ScenarioStacks & { app: App } {
  return appOf(resolveScenario({ ...CLI_CONTEXT, ...context }, catalog), context, outdir);
}

/** The same app for a scenario already resolved from `context` (a caller that resolved it to check it first). */
function appOf(scenario: Scenario, context: Record<string, string>, outdir?: string): ScenarioStacks & { app: App } {
  const all = { ...CLI_CONTEXT, ...context };
  const app = new App({ context: all, outdir, builtinCloudFormationValidation: validatesTemplates(all) });
  return { app, ...addScenarioStacks(app, scenario) };
}

/** Every stack's template of a resolved scenario, by stack name, synthesized into a directory removed afterwards. */
export function scenarioTemplates(scenario: Scenario, context: Record<string, string>): Map<string, Record<string, any>> {
  const outdir = mkdtempSync(join(tmpdir(), 'synth-'));
  try {
    const { app } = appOf(scenario, context, outdir);
    return new Map(app.synth().stacks.map((s) => [s.stackName, s.template as Record<string, any>]));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
