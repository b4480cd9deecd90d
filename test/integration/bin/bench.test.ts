import { AutoScalingClient, SetDesiredCapacityCommand } from '@aws-sdk/client-auto-scaling';
import { DeleteClusterCommand as DeleteDsqlClusterCommand, DSQLClient } from '@aws-sdk/client-dsql';
import { runBench } from '../../../lib/temporal/commands/bench/run-bench';
import { runCli } from '../../support/cli';
import { recordingIO } from '../../support/command-io';
import { CREDENTIALS, type Moto, MOTO_START_MS, startMoto, useMotoCredentials } from '../../../harness/moto';
import { seedTemporalFleet } from '../../../harness/offline-fleet';

/*
 * The bench commands end to end against moto on loopback: CloudFormation outputs, ECS
 * services, an Auto Scaling group and an Aurora DSQL cluster, through the real SDK clients.
 * moto has no ECS managed scaling, so the test plays its part (the ASG's desired capacity).
 * The flows are called as the entry point calls them (runBench); exit codes, progress lines and
 * error lines are what only the real process shows, so those runs start it.
 */

useMotoCredentials();

let moto: Moto;
const region = 'eu-west-1';
let asg: AutoScalingClient;
let dsql: DSQLClient;
let dsqlClusterId: string;

beforeAll(async () => {
  moto = await startMoto();
  const config = { region, endpoint: moto.endpoint, credentials: CREDENTIALS };
  asg = new AutoScalingClient(config);
  dsql = new DSQLClient(config);

  ({ dsqlClusterId } = await seedTemporalFleet(config, { instances: 2 }));
}, MOTO_START_MS + 60_000);

afterAll(() => moto?.stop());

/** The flow, called as the entry point calls it, its clients pointed at moto. */
const flow = { scenario: 'temporal-150wps', interval: '1s', endpointUrl: '' };
beforeAll(() => (flow.endpointUrl = moto.endpoint));
// What only a process shows (exit codes, the progress and error lines on stderr): the real CLI.
const bench = (...args: string[]) => runCli('bench.ts', [...args, '--scenario', 'temporal-150wps', '--endpoint-url', moto.endpoint, '--interval', '1s']);

describe('bench against moto on loopback', () => {
  test('status prints tasks and instances', async () => {
    const io = recordingIO();
    const out = await runBench('status', { ...flow, timeout: '1m' }, { io });
    expect(io.notes).toEqual([]);
    expect(out.stdout).toContain('| Worker tasks | 0 running, 0 pending, 0 desired (configured: 6, fleet: external) |');
    expect(out.stdout).toContain('| Benchmark instances | 2 in service, 0 starting, 0 stopping (ASG desired 2, max 4) |');
  }, 30_000);

  test("up sets the preset's 6 workers and waits until they run", async () => {
    const out = await runBench('up', { ...flow, timeout: '20s' }, { io: recordingIO() });
    expect(out.stdout).toMatch(/^up: tasks 6 running, 0 pending, 6 desired; /);
  }, 30_000);

  test('down times out (exit 4) while the ASG still has instances, then parks once it drains', async () => {
    const waiting = await bench('down', '--timeout', '2s');
    expect(waiting.status).toBe(4);
    // Not a terminal: the wait printed its status with the time elapsed, then one error line.
    const lines = waiting.stderr.trim().split('\n');
    // The elapsed time depends on the machine's load: only its form is asserted.
    expect(lines[0]).toMatch(/^\[\d+s\] workers to stop: tasks 0 running, 0 pending, 0 desired; instances 2 in service/);
    expect(lines.at(-1)).toMatch(
      /^error: timed out after 2 s waiting for the benchmark ASG to drain; last seen: tasks 0 running, 0 pending, 0 desired; instances 2 in service/,
    );
    expect(lines.filter((l) => l.startsWith('error:'))).toHaveLength(1);

    // What ECS managed scaling does once no task needs the instances.
    await asg.send(new SetDesiredCapacityCommand({ AutoScalingGroupName: 'bench-asg', DesiredCapacity: 0 }));
    const parked = await bench('down', '--timeout', '20s');
    expect(parked.status).toBe(0);
    expect(parked.stdout).toMatch(/^parked: tasks 0 running, 0 pending, 0 desired; instances 0 in service, 0 starting, 0 stopping \(ASG desired 0, max 4\)/);
  }, 60_000);

  test.each(['run', 'ladder'])(
    '%s checks the DSQL cluster, then refuses to run without workers (exit 5)',
    async (command) => {
      const out = await bench(command);
      expect(out.status).toBe(5);
      expect(out.stderr.trim()).toBe('error: no benchmark worker is running (0 desired); run `npm run bench -- up --scenario temporal-150wps` first');
    },
    30_000,
  );

  test('run refuses a DSQL cluster that is gone (exit 5)', async () => {
    await dsql.send(new DeleteDsqlClusterCommand({ identifier: dsqlClusterId }));
    const out = await bench('run');
    expect(out.status).toBe(5);
    expect(out.stderr.trim()).toBe(`error: Aurora DSQL cluster ${dsqlClusterId} (the stack's DsqlClusterId output) does not exist: deleted outside the stack?`);
  }, 30_000);

  test.each([['up'], ['run', '--duration', '1m'], ['ladder', '--step', '1m']])(
    '%j on a stack deployed as another preset is refused before anything changes (exit 1)',
    async (...args) => {
      const out = await runCli('bench.ts', [...args, '--scenario', 'temporal-100wps', '--endpoint-url', moto.endpoint]);
      expect(out.status).toBe(1);
      expect(out.stderr.trim()).toBe(
        "error: TemporalDsql was last deployed with temporal-150wps, not temporal-100wps; its pool and task sizes are temporal-150wps's " +
          '(valid: --scenario temporal-150wps, or deploy temporal-100wps first: npx cdk deploy --all -c scenario=temporal-100wps)',
      );
    },
    30_000,
  );

  test('status of a stack deployed as another preset shows it, with a note', async () => {
    const io = recordingIO();
    await runBench('status', { ...flow, scenario: 'temporal-100wps', timeout: '1m' }, { io });
    expect(io.notes).toEqual(['note: TemporalDsql was last deployed with temporal-150wps, not temporal-100wps']);
  }, 30_000);

  test.each([[['status', '--env-name', 'perf9'], /^error: stack "perf9-TemporalDsql" is not deployed in eu-west-1; deploy it first/]])(
    '%j (a stack that is not there) exits 1 with one line; bad arguments are in test/bad-input.test.ts',
    async (args, message) => {
      const out = await bench(...args);
      expect(out.status).toBe(1);
      expect(out.stderr.trim()).toMatch(message);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
    },
    30_000,
  );
});
