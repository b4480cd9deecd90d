import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchClient, GetMetricDataCommand, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import { Template } from 'aws-cdk-lib/assertions';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError } from '../../config';
import { scenarioApp } from '../../lib/assembly/scenario-app';
import { runCost } from '../../lib/commands/cost/run-cost';
import { runPlan } from '../../lib/commands/plan/run-plan';
import { runReport } from '../../lib/commands/report/run-report';
import { familyNames, familyOf, registerFamily, resolveScenario } from '../../lib/families';
import { recordingIO } from '../support/command-io';
import { TOY } from '../support/toy-family';

/*
 * The registry: a family is one entry. A third family, registered from the tests alone, is
 * synthesized, costed, reported and planned by the same shared code as FOLIO and Temporal,
 * none of which names it; neither real family is touched.
 */

let unregister: () => void;
beforeAll(() => {
  unregister = registerFamily(TOY);
});
afterAll(() => unregister());

test('every scenario resolves to a registered family, and a family is registered once', () => {
  expect(familyNames()).toEqual(['folio', 'temporal', 'toy']);
  expect(familyOf(resolveScenario({ scenario: 'test12' })).name).toBe('folio');
  expect(familyOf(resolveScenario({ scenario: 'temporal-150wps' })).name).toBe('temporal');
  expect(familyOf(resolveScenario({ scenario: 'toy-small' }) as never).name).toBe('toy');
  expect(() => registerFamily(TOY)).toThrow('family "toy" is registered already');
  expect(() => familyOf({ family: 'bogus' })).toThrow(new ConfigError('no family "bogus" (valid: folio, temporal, toy)'));
});

test('synth: its data stack, and the observability stack every family gets, from its catalog', () => {
  const { data, observability } = scenarioApp({ scenario: 'toy-small' });
  Template.fromStack(data).hasResourceProperties('AWS::SNS::Topic', { TopicName: 'toy-work', DisplayName: '1 workers' });
  const dashboard = Template.fromStack(observability).findResources('AWS::CloudWatch::Dashboard');
  expect(JSON.stringify(dashboard)).toContain('NumberOfMessagesPublished');
  expect(JSON.stringify(dashboard)).toContain('## ToyData: toy-small');
  Template.fromStack(observability).resourceCountIs('AWS::Budgets::Budget', 2);
});

test('cost: its lines and total; an option it does not take is refused naming its kind', async () => {
  const r = await runCost({ scenario: 'toy-large', json: true });
  expect(JSON.parse(r.stdout)).toMatchObject({ scenario: 'toy-large', total: 3 });
  await expect(runCost({ scenario: 'toy-large', txRate: '5' })).rejects.toThrow('--tx-rate does not apply to toy-large (a toy scenario; valid here:');
});

test('report: its metric read from CloudWatch, its summary and markdown written', async () => {
  const cloudWatch = mockClient(CloudWatchClient);
  const start = '2026-01-21T10:00:00Z';
  cloudWatch.on(GetMetricDataCommand).callsFake((input: { MetricDataQueries: MetricDataQuery[] }) => ({
    MetricDataResults: input.MetricDataQueries.map((q) => ({
      Id: q.Id,
      StatusCode: 'Complete',
      Timestamps: Array.from({ length: 10 }, (_, i) => new Date(Date.parse(start) + i * 60_000)),
      Values: Array.from({ length: 10 }, () => 7),
    })),
  }));
  const out = mkdtempSync(join(tmpdir(), 'toy-report-'));
  try {
    const r = await runReport({ scenario: 'toy-small', start, end: '2026-01-21T10:10:00Z', out }, { io: recordingIO(), now: new Date('2026-01-21T11:00:00Z') });
    expect(r.stdout).toMatch(/^# Toy report: toy-small\n/);
    expect(r.stdout).toContain('Messages published: 70.');
    expect(r.stdout).toContain('No proposal: a toy proposes nothing.');
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ family: 'toy', metrics: { published: 70 } });
  } finally {
    rmSync(out, { recursive: true, force: true });
    cloudWatch.restore();
  }
});

test('plan: the switch between two of its scenarios, its own notes and both days priced', async () => {
  const r = await runPlan({ from: 'toy-small', to: 'toy-large' });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toContain('# Plan: toy-small -> toy-large');
  expect(r.stdout).toContain('3 workers. Offline');
  expect(r.stdout).toMatch(/update in place.*`Work/);
  expect(r.stdout).toContain('Workers: 1 -> 3.');
  expect(r.stdout).toContain('toy-small $1.00 -> toy-large $3.00');
  await expect(runPlan({ from: 'toy-small', to: 'test12' })).rejects.toThrow('"toy-small" is a toy scenario and "test12" a FOLIO phase');
});
