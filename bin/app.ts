#!/usr/bin/env node
import { App } from 'aws-cdk-lib/core';
import { exitOnConfigError, validatesTemplates } from '../config';
import { cdkCliArgv, repeatedContext } from '../lib/assembly/cli-context';
import { addScenarioStacks } from '../lib/assembly/scenario-stacks';
import { resolveScenario } from '../lib/families';

const app = new App();
const context = app.node.getAllContext();
const scenario = exitOnConfigError(() => {
  const repeated = repeatedContext(cdkCliArgv() ?? []);
  if (repeated) throw repeated;
  return resolveScenario(context);
});
// CDK's own switch for its built-in CloudFormation validation, read when synth runs (after this).
if (!validatesTemplates(context)) process.env.CDK_VALIDATION = 'false';
addScenarioStacks(app, scenario);
