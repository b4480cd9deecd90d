import { FAMILY_NAME, type TemporalScenario } from '../../config';
import type { FamilyEntry } from '../family-contract';
import type { TemporalReport } from './commands/report/temporal-summary';
import { type TemporalDeployed, temporalCatalog } from './contract/temporal-metrics';
import { TEMPORAL_OUTPUTS } from './contract/temporal-stack-outputs';

/*
 * Temporal on ECS as a family: the presets, each a rate the cluster is sized for, with its
 * history in Aurora DSQL or Aurora PostgreSQL (an environment keeps its store for life). Its
 * stacks and its commands' parts are loaded by what uses them: synth never loads a command.
 */

export const TEMPORAL: FamilyEntry<TemporalScenario, TemporalReport> = {
  name: 'temporal',
  kind: FAMILY_NAME.temporal,
  noun: 'preset',
  scenarioOutput: TEMPORAL_OUTPUTS.scenario,
  scenarioFile: 'config/temporal-scenarios.ts',

  metricCatalog(scenario, deployed: TemporalDeployed) {
    if (scenario.preset.store.engine === 'dsql' && deployed.dsqlClusterId === undefined)
      throw new Error('the Temporal metric catalog needs the DSQL cluster id');
    return temporalCatalog(scenario, deployed.dsqlClusterId ?? '');
  },
  dashboardHeader(scenario) {
    const { preset } = scenario;
    return (
      `## ${scenario.stackName}: ${preset.name}\n` +
      `${preset.capacity.main.instances} x ${preset.capacity.main.instanceType} (main), 0-${preset.capacity.benchmark.maxInstances} x ` +
      `${preset.capacity.benchmark.instanceType} (benchmark); target ${preset.benchmark.targetRate} workflows/s`
    );
  },
  title: (scenario) => scenario.preset.title,

  stacks() {
    const { TEMPORAL_STACKS }: typeof import('./temporal-stacks') = require('./temporal-stacks');
    return TEMPORAL_STACKS;
  },
  commands() {
    const { TEMPORAL_COMMANDS }: typeof import('./temporal-commands') = require('./temporal-commands');
    return TEMPORAL_COMMANDS;
  },
};
