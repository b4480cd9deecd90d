import { resolveScenario, type TemporalScenario } from '../../../../config';
import { temporalDashboard } from '../../../../lib/temporal/contract/dashboards';
import { TEMPORAL_OUTPUTS } from '../../../../lib/temporal/contract/temporal-stack-outputs';
import { hibernatable, logicalId, synthScenario } from '../../../support/synth';

/*
 * Grafana in the stack: one task on the main pool, memory and no CPU reserved, its provisioning
 * carried in its environment; a group that admits its port from the container instances only
 * and reaches nothing but HTTPS; a task role that may query the environment's Managed
 * Prometheus workspace and nothing else; no sign-in and no admin user. A preset with
 * `dashboards: false` keeps the resources at 0 tasks.
 */

const { json } = synthScenario({ scenario: 'temporal-150wps' });
const scenario = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const { environment: e } = scenario;
const R = json.Resources as Record<string, any>;
const ofType = (t: Record<string, any>, type: string) => Object.entries(t.Resources as Record<string, any>).filter(([, r]) => r.Type === type);
const service = (t: Record<string, any>) => ofType(t, 'AWS::ECS::Service').find(([, r]) => r.Properties.ServiceName === 'temporal-grafana')![1];
const taskId = logicalId(json, 'AWS::ECS::TaskDefinition', '/Dashboards/Grafana/Task/Resource');
const task = R[taskId].Properties;
const [container] = task.ContainerDefinitions;
const env = Object.fromEntries(container.Environment.map((v: any) => [v.Name, v.Value]));
const group = logicalId(json, 'AWS::EC2::SecurityGroup', '/Dashboards/SecurityGroup/Resource');
const instanceGroup = logicalId(json, 'AWS::EC2::SecurityGroup', '/Capacity/InstanceSecurityGroup/Resource');
const workspace = logicalId(json, 'AWS::APS::Workspace', '/Prometheus/Workspace');

test('one task on the main pool while awake, none while hibernated; none at all for a preset that leaves it out', () => {
  const s = service(json);
  expect(s.Properties.DesiredCount).toEqual(hibernatable(1));
  expect(JSON.stringify(s.Properties.CapacityProviderStrategy)).toContain('CapacityMainCapacityProvider');
  expect(s.Properties.NetworkConfiguration.AwsvpcConfiguration.AssignPublicIp).toBe('DISABLED');
  const off = synthScenario({ scenario: 'temporal-100wps' }).json;
  expect(service(off).Properties.DesiredCount).toBe(0);
});

test('its task: memory and no CPU reserved, read-only root, the image user, Grafana health, the address in the outputs', () => {
  expect(task.Cpu).toBeUndefined();
  expect(task.Memory).toBe(String(e.dashboards.memoryGiB * 1024));
  expect(container).toMatchObject({
    Image: (e.images.grafana as { registry: string }).registry,
    User: '472',
    ReadonlyRootFilesystem: true,
    PortMappings: [expect.objectContaining({ ContainerPort: 3000 })],
    EntryPoint: ['sh', '-c'],
  });
  expect(container.Secrets).toBeUndefined();
  expect(container.HealthCheck.Command).toEqual(['CMD-SHELL', 'wget -q -O /dev/null http://127.0.0.1:3000/api/health || exit 1']);
  expect(json.Outputs[TEMPORAL_OUTPUTS.grafanaAddress].Value).toBe(`grafana.${e.names.serviceNamespace}:3000`);
  // ECS refuses a task definition over 64 KiB: the dashboard travels in it.
  expect(JSON.stringify(task).length).toBeLessThan(64 * 1024);
});

test('nobody signs in and nothing is fetched from the internet: anonymous viewers, no login form, no admin user, no plugins, no update checks', () => {
  expect(env).toMatchObject({
    GF_AUTH_ANONYMOUS_ENABLED: 'true',
    GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer',
    GF_AUTH_DISABLE_LOGIN_FORM: 'true',
    GF_AUTH_BASIC_ENABLED: 'false',
    GF_SECURITY_DISABLE_INITIAL_ADMIN_CREATION: 'true',
    GF_PLUGINS_PREINSTALL_DISABLED: 'true',
    GF_ANALYTICS_REPORTING_ENABLED: 'false',
    GF_ANALYTICS_CHECK_FOR_UPDATES: 'false',
  });
  expect(Object.keys(env).filter((k) => /PASSWORD|SECRET|TOKEN|KEY/.test(k))).toEqual([]);
  // Every path it writes is under the scratch volume.
  for (const k of ['GF_PATHS_DATA', 'GF_PATHS_LOGS', 'GF_PATHS_PLUGINS', 'GF_PATHS_PROVISIONING']) expect(env[k]).toMatch(/^\/tmp\//);
});

test('the data source is the workspace, queried with SigV4 as the task role in its own region; the dashboard is the generated one', () => {
  const datasource = JSON.stringify(env.GRAFANA_DATASOURCES);
  expect(datasource).toContain(workspace);
  expect(datasource).toContain('PrometheusEndpoint');
  expect(datasource).toContain('sigV4Auth: true');
  expect(datasource).toContain('sigV4AuthType: default');
  expect(datasource).toContain(`sigV4Region: ${scenario.env.region}`);
  expect(env.GF_AUTH_SIGV4_AUTH_ENABLED).toBe('true');
  expect(JSON.parse(env.GRAFANA_DASHBOARD)).toEqual(JSON.parse(JSON.stringify(temporalDashboard('dsql', 'benchmark', e.dashboards.refresh))));
});

test('no path from outside the VPC: in from the container instances on its port only, out to HTTPS only', () => {
  const g = R[group].Properties;
  expect(g.SecurityGroupIngress ?? []).toEqual([]);
  expect(g.SecurityGroupEgress).toEqual([expect.objectContaining({ CidrIp: '0.0.0.0/0', FromPort: 443, ToPort: 443, IpProtocol: 'tcp' })]);
  const ingress = ofType(json, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties);
  expect(ingress.filter((i) => JSON.stringify(i.GroupId).includes(group))).toEqual([
    expect.objectContaining({ SourceSecurityGroupId: { 'Fn::GetAtt': [instanceGroup, 'GroupId'] }, FromPort: 3000, ToPort: 3000 }),
  ]);
});

test('its task role may query the one workspace and do nothing else', () => {
  const role = logicalId(json, 'AWS::IAM::Role', '/Dashboards/TaskRole/Resource');
  const policies = ofType(json, 'AWS::IAM::Policy')
    .map(([, p]) => p.Properties)
    .filter((p) => JSON.stringify(p.Roles).includes(role));
  expect(policies.flatMap((p) => p.PolicyDocument.Statement)).toEqual([
    {
      Effect: 'Allow',
      Action: ['aps:GetLabels', 'aps:GetMetricMetadata', 'aps:GetSeries', 'aps:QueryMetrics'],
      Resource: { 'Fn::GetAtt': [workspace, 'Arn'] },
    },
  ]);
  expect(R[role].Properties.ManagedPolicyArns).toBeUndefined();
});
