import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_UNSAFE } from '../../../../lib/commands/shared/cli';
import { runPlan } from '../../../../lib/commands/plan/run-plan';

/* The plan command's flow: markdown or JSON of one transition, and its exit code. The plan itself: transition-plan.test.ts. */

test('--json returns the transition as data, and a safe switch exits 0', async () => {
  const r = await runPlan({ from: 'test11', to: 'test12', json: true });
  expect(JSON.parse(r.stdout)).toMatchObject({ from: 'test11', to: 'test12', unsafe: 0 });
  expect(r.exitCode).toBe(0);
});

test('a switch between Temporal stores is refused by name', async () => {
  await expect(runPlan({ from: 'temporal-150wps', to: 'temporal-aurora-150wps' })).rejects.toThrow(/keeps its store for life/);
  expect(EXIT_UNSAFE).toBe(3);
});

describe('--proposal: the phase a FOLIO report proposed, planned without adding it to config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'plan-proposal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, report: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(report));
    return path;
  };
  const example = JSON.parse(readFileSync('docs/report-example/test10/report.json', 'utf8'));

  test("the report example's proposal (test10's ceiling doubled): one property of the Serverless cluster, in place", async () => {
    expect(example.proposal).toMatchObject({ status: 'proposed', rule: 'ceiling-flat', next: { diff: ['offload.serverless.max: 32 -> 64'] } });
    const r = await runPlan({ from: 'test10', proposal: write('report.json', example), json: true });
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ from: 'test10', to: 'test10-next', unsafe: 0 });
    const data = plan.stacks.find((s: { stackName: string }) => s.stackName === 'FolioHybridAurora');
    expect(data.changes).toEqual([
      expect.objectContaining({
        type: 'AWS::RDS::DBCluster',
        properties: [expect.objectContaining({ name: 'ServerlessV2ScalingConfiguration', to: { MinCapacity: 0.5, MaxCapacity: 64 } })],
      }),
    ]);
  });

  test.each([
    [{ to: 'test11' }, '--to and --proposal both name where to go (valid: one of them)'],
    [{ from: 'test9' }, /^--proposal ".*" proposes what follows test10, not --from test9 \(valid: --from test10\)$/],
  ])('refused: %j', async (extra, message) => {
    await expect(runPlan({ from: 'test10', proposal: write('r.json', example), ...extra })).rejects.toThrow(message);
  });

  test('a report that proposes nothing is refused, with what its proposal was', async () => {
    const unchanged = { ...example, proposal: { status: 'unchanged', says: 'no rule holds', evidence: [], caveats: [] } };
    await expect(runPlan({ from: 'test10', proposal: write('u.json', unchanged) })).rejects.toThrow(
      /^--proposal ".*u\.json" proposes no phase \(its proposal: unchanged\) \(valid: a report\.json whose "What to try next" proposes a change\)$/,
    );
  });
});

describe('--check-deployed: the deployed data stack read before anything is planned', () => {
  const deployedWith = (outputs: Record<string, string> | undefined) => {
    const calls: string[] = [];
    const client = {
      send: async (command: { input: { StackName: string } }) => {
        calls.push(command.input.StackName);
        if (!outputs) throw Object.assign(new Error(`Stack with id ${command.input.StackName} does not exist`), { name: 'ValidationError', $metadata: {} });
        return {
          Stacks: [{ StackStatus: 'UPDATE_COMPLETE', Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })) }],
        };
      },
      config: { region: async () => 'eu-west-1' },
    };
    return { calls, deps: { aws: () => ({ cloudFormation: () => client }) as never } };
  };
  const plan = (outputs: Record<string, string> | undefined, from = 'temporal-150wps') =>
    runPlan({ from, to: 'temporal-400wps', json: true, checkDeployed: true }, deployedWith(outputs).deps);

  test('an environment created with another numHistoryShards than config has now: refused in one line naming the setting and both values', async () => {
    await expect(plan({ Scenario: 'temporal-150wps', HistoryShards: '8192', HistoryStoreEngine: 'dsql' })).rejects.toThrow(
      'persistence.numHistoryShards (config/temporal-environment.ts) is 8192 in the deployed TemporalDsql and 4096 in config: it can never change once the environment holds data ' +
        '(valid: 8192, as it was created; or another environment: -c envName=<name>)',
    );
  });

  test('the same values plan as without it; --from other than the scenario deployed, or no stack, is one line', async () => {
    expect((await plan({ Scenario: 'temporal-150wps', HistoryShards: '4096', HistoryStoreEngine: 'dsql' })).exitCode).toBe(0);
    await expect(plan({ Scenario: 'temporal-400wps', HistoryShards: '4096' })).rejects.toThrow(
      '--from temporal-150wps, but TemporalDsql was last deployed with temporal-400wps (valid: --from temporal-400wps)',
    );
    await expect(plan(undefined)).rejects.toThrow(
      '--check-deployed: TemporalDsql is not deployed in eu-west-1 (valid: without --check-deployed before the first deploy; check --env-name)',
    );
  });

  test('without it, plan makes no AWS call; --endpoint-url alone is refused', async () => {
    const { calls, deps } = deployedWith({});
    await runPlan({ from: 'temporal-150wps', to: 'temporal-400wps', json: true }, deps);
    expect(calls).toEqual([]);
    await expect(runPlan({ from: 'temporal-150wps', to: 'temporal-400wps', endpointUrl: 'http://127.0.0.1:5000' })).rejects.toThrow(
      '--endpoint-url goes with --check-deployed, the only AWS call plan makes (valid: both, or neither)',
    );
  });
});
