import type { App, Stack } from 'aws-cdk-lib/core';
import type { Scenario } from '../../config';
import type { MetricCatalog } from './contract/metrics';

/*
 * What a family of scenarios (FOLIO's phases, Temporal's presets) is to the app: its identity,
 * its metric catalog and its stacks. What each command asks of a family is the command's own
 * part of the contract, beside the shared code that calls it (lib/commands/<command>/family-*.ts,
 * lib/campaign/family-campaign.ts); lib/family-contract.ts puts the parts together, and
 * lib/families.ts keys one family by `scenario.family`.
 */

/**
 * What only a deploy knows (a DSQL cluster's generated id), read back from the data stack for
 * the dashboards and the report. Its shape is the family's own: shared code only passes it on.
 */
export type Deployed = object;

/** A family's stacks: built by the app, never loaded by a command. */
export interface FamilyStacks<S extends Scenario = Scenario> {
  /** Its data stack; the observability stack is added beside it from `metricCatalog`. */
  addDataStack(app: App, scenario: S): { readonly stack: Stack; readonly deployed: Deployed };
}

/**
 * A family's identity and catalog, what the app and every command read. Methods, not
 * function-valued fields: a family of `FolioScenario` is a family of `Scenario` to the registry,
 * which only ever hands it its own.
 */
export interface FamilyCore<S extends Scenario = Scenario> {
  readonly name: S['family'];
  /** One of its scenarios, in words: "FOLIO phase". */
  readonly kind: string;
  /** What one of its scenarios is called: "phase". */
  readonly noun: string;
  /** The data stack's output that names the scenario deployed ("Phase"): what a campaign checks before it resumes. */
  readonly scenarioOutput: string;
  /** Where its scenarios are written: "config/folio-phases.ts". */
  readonly scenarioFile: string;

  metricCatalog(scenario: S, deployed: Deployed): MetricCatalog;
  /** The dashboard's first line: which scenario the graphs belong to. */
  dashboardHeader(scenario: S): string;
  /** A scenario's title, from its fields. */
  title(scenario: S): string;
}
