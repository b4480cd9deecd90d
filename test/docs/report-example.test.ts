import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { renderCharts } from '../../lib/commands/report/charts';
import { renderServerCharts } from '../../lib/temporal/commands/report/temporal-charts';
import { renderMarkdown } from '../../lib/commands/report/render-report';
import { expectDocFile } from '../support/docs';
import { page } from '../support/manual';
import { fixtureReport } from '../support/report-fixture';

/*
 * docs/report-example/ is the report command's output for the recorded fixtures, and the
 * manual quotes it (docs/reports.md). Both are checked here, so the example is what the code prints today.
 * After an intended change to the report's output: UPDATE_DOCS=1 npx jest test/docs
 */

const ROOT = join(__dirname, '../..');
const EXAMPLE = join(ROOT, 'docs/report-example');
const cw = mockClient(CloudWatchClient);
afterEach(() => cw.reset());

/**
 * Where each part of an example comes from, said at its top: the Temporal example joins two
 * recordings that are not one run, so its figures do not add up across them.
 */
function provenance(scenario: string, workflows: number | undefined): string {
  if (scenario !== 'temporal-150wps') return '';
  const local = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/query-range/temporal-150wps.json'), 'utf8'));
  const seconds = Math.round((Date.parse(local.window.end) - Date.parse(local.window.start)) / 1000);
  return [
    '> **An example assembled from two recordings, not one run.** The CloudWatch figures (DSQL, ECS, the limiter)',
    "> are shaped like seed 000's 150 workflows/s run on AWS (`test/fixtures/get-metric-data/temporal-150wps.json`), with",
    `> its ${workflows!.toLocaleString('en-US')} workflows. The servers' own metrics (persistence, health, the server's view, the bottleneck)`,
    `> are a real ${seconds} s recording of the local four-role cluster (${local.workflowsCompleted.toLocaleString('en-US')} workflows completed, ${local.stepSeconds} s steps)`,
    '> (`test/fixtures/query-range/temporal-150wps.json`), moved to this window: their totals count only the span',
    '> their samples cover, and their rates are not comparable with the CloudWatch ones. A report of a real run',
    '> reads both from that run.',
    '',
    '',
  ].join('\n');
}

async function example(fixture: string, scenario: string, workflows?: number) {
  const { catalog, points, window, report, server } = await fixtureReport(cw, fixture, scenario, { workflows });
  const subtitle = `${scenario}, ${report.window.start} to ${report.window.end}`;
  const charts = [...renderCharts(catalog, points, window, subtitle), ...(server ? renderServerCharts(server, window, subtitle) : [])];
  const files: Record<string, string> = {
    [`${scenario}/report.md`]: provenance(scenario, workflows) + renderMarkdown(report, charts.map((c) => ({ file: `charts/${c.file}`, title: c.title }))),
    // As bin/report.ts writes it: what `cost --report` and `report --compare` read.
    [`${scenario}/report.json`]: `${JSON.stringify(report, null, 2)}\n`,
  };
  for (const c of charts) files[`${scenario}/charts/${c.file}`] = c.svg;
  return files;
}

test.each([
  ['temporal-150wps', 'temporal-150wps', 41_052],
  ['folio-test10', 'test10', undefined],
])('docs/report-example/%s is the report of the recorded fixture', async (fixture, scenario, workflows) => {
  const files = await example(fixture, scenario, workflows);
  for (const [name, content] of Object.entries(files)) expectDocFile(join(EXAMPLE, name), content, name);
});

test('every table row docs/reports.md quotes from the examples is in them', () => {
  // The rows of the tables that follow "From the ... report": each table whole, its header too.
  const reports = page('docs/reports.md');
  const quoted = [...reports.matchAll(/From the [^\n]*report[^\n]*:\n\n((?:\|[^\n]*\n)+)/g)].flatMap((m) => m[1].trimEnd().split('\n'));
  expect(quoted.length).toBeGreaterThanOrEqual(12);
  const examples = ['temporal-150wps', 'test10'].map((s) => readFileSync(join(EXAMPLE, s, 'report.md'), 'utf8')).join('\n');
  for (const line of quoted) expect(examples).toContain(line);
});
