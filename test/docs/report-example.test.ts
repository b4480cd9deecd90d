import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { renderCharts, renderServerCharts } from '../../lib/commands/report/charts';
import { renderMarkdown } from '../../lib/commands/report/markdown';
import { expectDocFile } from '../support/docs';
import { fixtureReport } from '../support/report-fixture';

/*
 * docs/report-example/ is the report command's output for the recorded fixtures, and the
 * README quotes it. Both are checked here, so the example is what the code prints today.
 * After an intended change to the report's output: UPDATE_DOCS=1 npx jest test/docs
 */

const ROOT = join(__dirname, '../..');
const EXAMPLE = join(ROOT, 'docs/report-example');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const cw = mockClient(CloudWatchClient);
afterEach(() => cw.reset());

async function example(fixture: string, scenario: string, workflows?: number) {
  const { catalog, points, window, report, server } = await fixtureReport(cw, fixture, scenario, { workflows });
  const subtitle = `${scenario}, ${report.window.start} to ${report.window.end}`;
  const charts = [...renderCharts(catalog, points, window, subtitle), ...(server ? renderServerCharts(server, window, subtitle) : [])];
  const files: Record<string, string> = {
    [`${scenario}/report.md`]: renderMarkdown(report, charts.map((c) => ({ file: `charts/${c.file}`, title: c.title }))),
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

test('every table row the README quotes from the example is in the example', () => {
  const quoted = README.split('\n').filter((l) => l.startsWith('| ') && /TotalTx|ReadOnlyTx|WriteTx|Peak ACU|Time at ceiling|DSQL connections \|/.test(l));
  expect(quoted.length).toBeGreaterThanOrEqual(5);
  const examples = ['temporal-150wps', 'test10'].map((s) => readFileSync(join(EXAMPLE, s, 'report.md'), 'utf8')).join('\n');
  for (const line of quoted) expect(examples).toContain(line);
});
