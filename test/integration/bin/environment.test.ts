import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeServicesCommand, ECSClient } from '@aws-sdk/client-ecs';
import { CreateDBClusterCommand, RDSClient } from '@aws-sdk/client-rds';
import { resolveScenario, TEMPORAL_ROLES, type FolioScenario, type TemporalScenario } from '../../../config';
import { runEnvironment } from '../../../lib/commands/environment/run-environment';
import { BENCHMARK_WORKER_SERVICE, TEMPORAL_GRAFANA_SERVICE, TEMPORAL_UI_SERVICE, temporalServiceName } from '../../../lib/temporal/contract/temporal-names';
import { CREDENTIALS, type Moto, MOTO_START_MS, startMoto, useMotoCredentials } from '../../../harness/moto';
import { seedTemporalFleet } from '../../../harness/offline-fleet';
import { runCli } from '../../support/cli';
import { recordingIO } from '../../support/command-io';

/*
 * Hibernate and wake against moto on loopback, through the real SDK clients: the ECS services
 * drained in the reverse of their start order and brought back in it, both Auto Scaling groups
 * to 0 and the main one back to the preset's size, the stack's Hibernated parameter recorded
 * (CloudFormation's UpdateStack with the previous template), and FOLIO's clusters stopped and
 * started. moto places no tasks and has no health checks: the order and the counts are what
 * these tests hold; the local cluster test holds what the order is for.
 */

useMotoCredentials();

let moto: Moto;
const region = 'eu-west-1';
let ecs: ECSClient;
let asg: AutoScalingClient;
let cfn: CloudFormationClient;
const temporal = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const { preset } = temporal;
const folio = resolveScenario({ scenario: 'test11' }) as FolioScenario;

beforeAll(async () => {
  moto = await startMoto();
  const config = { region, endpoint: moto.endpoint, credentials: CREDENTIALS };
  ecs = new ECSClient(config);
  asg = new AutoScalingClient(config);
  cfn = new CloudFormationClient(config);
  await seedTemporalFleet(config, { instances: 0 });
  const rds = new RDSClient({ ...config, region: folio.env.region });
  for (const id of [folio.environment.names.primaryCluster, folio.environment.names.offloadCluster])
    await rds.send(
      new CreateDBClusterCommand({ DBClusterIdentifier: id, Engine: 'aurora-postgresql', MasterUsername: 'admin_user', MasterUserPassword: 'password-12345' }),
    );
}, MOTO_START_MS + 60_000);

afterAll(() => moto?.stop());

const flow = (scenario: string) => ({ scenario, timeout: '30s', interval: '1s', endpointUrl: moto.endpoint });
const counts = async () => {
  const names = [...TEMPORAL_ROLES.map(temporalServiceName), TEMPORAL_UI_SERVICE, TEMPORAL_GRAFANA_SERVICE, BENCHMARK_WORKER_SERVICE];
  const { services } = await ecs.send(new DescribeServicesCommand({ cluster: 'temporal-dsql', services: names }));
  return Object.fromEntries(names.map((n) => [n, services!.find((s) => s.serviceName === n)!.desiredCount]));
};
const groups = async () => {
  const { AutoScalingGroups } = await asg.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: ['main-asg', 'bench-asg'] }));
  return Object.fromEntries(AutoScalingGroups!.map((g) => [g.AutoScalingGroupName, [g.MinSize, g.Instances?.length ?? 0]]));
};
const hibernatedParameter = async () => {
  const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: 'TemporalDsql' }));
  return Stacks![0].Parameters!.find((p) => p.ParameterKey === 'Hibernated')!.ParameterValue;
};

describe('a Temporal environment', () => {
  test('hibernate: the UI, Grafana and the benchmark workers, then worker, frontend, matching and history to 0; both groups to 0; Hibernated=true', async () => {
    expect(await groups()).toEqual({ 'main-asg': [10, 10], 'bench-asg': [0, 0] });
    const io = recordingIO();
    const out = await runEnvironment('hibernate', flow('temporal-150wps'), { io });
    expect(io.notes).toEqual([
      'temporal-ui: 1 -> 0 tasks',
      'temporal-grafana: 1 -> 0 tasks',
      'benchmark-worker: 0 -> 0 tasks',
      'temporal-worker: 2 -> 0 tasks',
      'temporal-frontend: 4 -> 0 tasks',
      'temporal-matching: 6 -> 0 tasks',
      'temporal-history: 8 -> 0 tasks',
      'bench-asg: 0 -> 0 instances',
      'main-asg: 10 -> 0 instances',
    ]);
    expect(out.stdout).toMatch(/TemporalDsql: Hibernated=true recorded; a deploy keeps it hibernated until npm run wake\n$/);
    expect(Object.values(await counts())).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(await groups()).toEqual({ 'main-asg': [0, 0], 'bench-asg': [0, 0] });
    expect(await hibernatedParameter()).toBe('true');
  }, 120_000);

  test('status says hibernated, and what runs', async () => {
    const out = await runEnvironment('status', flow('temporal-150wps'), { io: recordingIO() });
    expect(out.stdout).toMatch(/^TemporalDsql \(temporal-150wps\): hibernated \(npm run wake brings it back\)\n/);
    expect(out.stdout).toContain('| temporal-history | 0 running of 0 desired |');
    expect(out.stdout).toContain('| main-asg | 0 instances, desired 0, min 0 |');
  }, 30_000);

  test('hibernate again goes through as no-ops and says it was already recorded', async () => {
    const out = await runEnvironment('hibernate', flow('temporal-150wps'), { io: recordingIO() });
    expect(out.stdout).toContain('Hibernated=true (already recorded)');
  }, 60_000);

  test('wake: the main group to the preset, then history, matching, frontend and worker at their counts, then the UI and Grafana; the fleet left parked; Hibernated=false', async () => {
    const io = recordingIO();
    const out = await runEnvironment('wake', flow('temporal-150wps'), { io });
    expect(io.notes).toEqual([
      'main-asg: 10 instances in service',
      ...TEMPORAL_ROLES.map((r) => `temporal-${r}: ${preset.services[r].replicas} task${preset.services[r].replicas === 1 ? '' : 's'}, healthy`),
      'temporal-ui: 1 task, healthy',
      'temporal-grafana: 1 task, healthy',
    ]);
    expect(out.stdout).toContain('benchmark-worker: left at 0 (fleet: external); npm run bench -- up brings it');
    expect(await counts()).toEqual({
      'temporal-history': 8,
      'temporal-matching': 6,
      'temporal-frontend': 4,
      'temporal-worker': 2,
      'temporal-ui': 1,
      'temporal-grafana': 1,
      'benchmark-worker': 0,
    });
    expect((await groups())['main-asg']).toEqual([10, 10]);
    expect(await hibernatedParameter()).toBe('false');
  }, 120_000);

  test('once awake, ui prints the port forward through an instance in service of the main group: to the Web UI, and with --dashboards to Grafana', async () => {
    const ui = await runCli('ui.ts', ['--scenario', 'temporal-150wps', '--endpoint-url', moto.endpoint]);
    const grafana = await runCli('ui.ts', ['--scenario', 'temporal-150wps', '--dashboards', '--endpoint-url', moto.endpoint]);
    for (const out of [ui, grafana]) {
      expect(out.status).toBe(0);
      expect(out.stdout).toMatch(/--target i-[0-9a-f]+ --document-name AWS-StartPortForwardingSessionToRemoteHost/);
    }
    expect(ui.stdout).toContain(`"host":["ui.${temporal.environment.names.serviceNamespace}"],"portNumber":["8080"]`);
    expect(grafana.stdout).toContain(`"host":["grafana.${temporal.environment.names.serviceNamespace}"],"portNumber":["3000"]`);
    expect(grafana.stdout).toContain('then open http://localhost:3000/d/temporal-run');
  }, 60_000);

  test('wake and hibernate refuse a preset other than the one deployed, before touching anything (exit 1)', async () => {
    const out = await runCli('environment.ts', ['wake', '--scenario', 'temporal-400wps', '--endpoint-url', moto.endpoint]);
    expect(out.status).toBe(1);
    expect(out.stderr.trim()).toBe(
      "error: TemporalDsql was last deployed with temporal-150wps, not temporal-400wps: its task sizes and store are temporal-150wps's (valid: --scenario temporal-150wps)",
    );
  }, 30_000);
});

describe('a FOLIO environment', () => {
  const [primary, offload] = [folio.environment.names.primaryCluster, folio.environment.names.offloadCluster];

  test('hibernate stops both clusters and says what happens after 7 days', async () => {
    const out = await runEnvironment('hibernate', flow('test11'), { io: recordingIO() });
    expect(out.stdout).toBe(
      `${primary}: available -> stopped\n${offload}: available -> stopped\n` +
        "Aurora starts a stopped cluster after 7 days; this environment's idle rule stops both again after 120 minutes without a connection.\n",
    );
    const status = await runEnvironment('status', flow('test11'), { io: recordingIO() });
    expect(status.stdout).toBe(`FolioHybridAurora: hibernated (clusters stopped)\n${primary}: stopped\n${offload}: stopped\n`);
  }, 60_000);

  test('the mover refuses while the clusters are stopped, naming the way back (exit 5)', async () => {
    const out = await runCli('move.ts', ['--scenario', 'test11', '--module', 'mod-inventory-storage', '--to', 'offload', '--endpoint-url', moto.endpoint]);
    expect(out.status).toBe(5);
    expect(out.stderr.trim()).toBe(
      `error: a move needs both clusters available, and ${primary} is stopped, ${offload} is stopped (hibernated: npm run wake -- --scenario test11 starts them)`,
    );
  });

  test('wake starts both', async () => {
    const out = await runEnvironment('wake', flow('test11'), { io: recordingIO() });
    expect(out.stdout).toBe(`${primary}: stopped -> available\n${offload}: stopped -> available\n`);
  }, 60_000);
});
