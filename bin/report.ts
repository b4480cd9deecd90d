#!/usr/bin/env node
import { type ReportOptions, runReport } from '../lib/commands/report/run-report';
import { entryPoint, EXIT_NO_DATA, newCommand, runCommand, sharedOption } from '../lib/commands/shared/cli';

const program = newCommand('report', { aws: true, [EXIT_NO_DATA]: 'not one datapoint in the window (the report, written anyway, says so)' })
  .description(
    "Fetch a scenario's CloudWatch metrics over a time window and write the report: markdown tables, JSON and SVG charts.\n" + 'Or compare two report JSONs.',
  )
  .addOption(sharedOption.scenario('the scenario the window ran (a FOLIO phase or a Temporal preset; with --run, the record names it)'))
  .addOption(sharedOption.envName())
  .option('--start <time>', 'window start, ISO 8601 with a zone (with --end)')
  .option('--end <time>', 'window end, ISO 8601 with a zone (with --start)')
  .option('--last <duration>', 'the window that ends now, e.g. 30m, 2h')
  .option('--run <file>', 'the run record bench run writes: its scenario, window and workflow count')
  .option('--period <duration>', 'time per point, whole minutes: 1m, 5m, 1h (default: the finest CloudWatch keeps for the window)')
  .option('--workflows <count>', 'workflows the run completed (Temporal): gives transactions per workflow')
  .option('--dsql-cluster-id <id>', "the DSQL cluster id (Temporal; default: the data stack's DsqlClusterId output)")
  .option('-o, --out <dir>', 'where to write report.md, report.json and the charts (default: reports/<scenario>-<start>)')
  .addOption(sharedOption.endpointUrl())
  .option(
    '--prometheus-url <url>',
    "Temporal: a Prometheus-compatible query endpoint instead of the stack's Managed Prometheus workspace (signed with SigV4 unless on loopback)",
  )
  .option('--compare <reports...>', 'compare two report.json files (A then B) and print the deltas')
  .addOption(sharedOption.json('print report.json (with --compare, the deltas) instead of the markdown'))
  .addHelpText(
    'after',
    '\nExamples:\n' +
      '  npm run report -- --scenario test10 --start 2026-01-21T10:00:00Z --end 2026-01-21T12:00:00Z\n' +
      '  npm run report -- --scenario temporal-150wps --run reports/run.json\n' +
      '  npm run report -- --compare reports/test11/report.json reports/test12/report.json',
  );

entryPoint(() => runCommand(() => runReport(program.parse().opts<ReportOptions>())));
