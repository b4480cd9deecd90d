import { resolveScenario, type TemporalScenario } from '../../../../config';
import { TEMPORAL_OUTPUTS } from '../../../../lib/temporal/contract/temporal-stack-outputs';
import { hibernatable, logicalId, synthScenario } from '../../../support/synth';

/*
 * The Temporal Web UI in the stack: one task on the main pool, reserving memory and no CPU,
 * configured as the image's template reads it; a group that admits the UI port from the
 * container instances only and reaches nothing but the frontend's gRPC port; a task role with
 * no permission; the main pool's instances able to start a Session Manager session, the
 * benchmark pool's not. A preset with `ui: false` keeps the resources at 0 tasks.
 */

const { json } = synthScenario({ scenario: 'temporal-150wps' });
const { environment: e } = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const R = json.Resources as Record<string, any>;
const ofType = (t: Record<string, any>, type: string) => Object.entries(t.Resources as Record<string, any>).filter(([, r]) => r.Type === type);
const uiService = (t: Record<string, any>) => ofType(t, 'AWS::ECS::Service').find(([, r]) => r.Properties.ServiceName === 'temporal-ui')![1];
const uiTask = R[logicalId(json, 'AWS::ECS::TaskDefinition', '/WebUi/Ui/Task/Resource')].Properties;
const uiGroup = logicalId(json, 'AWS::EC2::SecurityGroup', '/WebUi/SecurityGroup/Resource');
const instanceGroup = logicalId(json, 'AWS::EC2::SecurityGroup', '/Capacity/InstanceSecurityGroup/Resource');
const serverGroup = logicalId(json, 'AWS::EC2::SecurityGroup', '/ServerSecurityGroup/Resource');

test('one task on the main pool while awake, none while hibernated; none at all for a preset that leaves it out', () => {
  const s = uiService(json);
  expect(s.Properties.DesiredCount).toEqual(hibernatable(1));
  expect(JSON.stringify(s.Properties.CapacityProviderStrategy)).toContain('CapacityMainCapacityProvider');
  expect(s.Properties.NetworkConfiguration.AwsvpcConfiguration.AssignPublicIp).toBe('DISABLED');
  expect(uiService(synthScenario({ scenario: 'temporal-100wps' }).json).Properties.DesiredCount).toBe(0);
});

test('its task: memory and no CPU reserved, arm64, read-only root, the image user, the frontend as the benchmark reaches it', () => {
  expect(uiTask.Cpu).toBeUndefined();
  expect(uiTask.Memory).toBe(String(e.ui.memoryGiB * 1024));
  const [c] = uiTask.ContainerDefinitions;
  expect(c).toMatchObject({
    Image: (e.images.ui as { registry: string }).registry,
    User: '1000:1000',
    ReadonlyRootFilesystem: true,
    PortMappings: [expect.objectContaining({ ContainerPort: 8080 })],
  });
  expect(c.HealthCheck.Command).toEqual(['CMD-SHELL', 'wget -q -O /dev/null http://127.0.0.1:8080/healthz || exit 1']);
  const env = Object.fromEntries(c.Environment.map((v: any) => [v.Name, v.Value]));
  expect(env).toEqual({
    TEMPORAL_ADDRESS: `frontend.${e.names.serviceNamespace}:${e.ports.frontend.grpc}`,
    TEMPORAL_UI_PORT: '8080',
    TEMPORAL_DEFAULT_NAMESPACE: 'benchmark',
    TEMPORAL_CSRF_COOKIE_INSECURE: 'true',
    TEMPORAL_DISABLE_NEWS_FETCH: 'true',
    TEMPORAL_NOTIFY_ON_NEW_VERSION: 'false',
  });
  expect(json.Outputs[TEMPORAL_OUTPUTS.uiAddress].Value).toBe(`ui.${e.names.serviceNamespace}:8080`);
});

test('no path from outside the VPC: in from the container instances on its port only, out to the frontend gRPC only', () => {
  const g = R[uiGroup].Properties;
  expect(g.SecurityGroupIngress ?? []).toEqual([]);
  // One inline egress rule, so EC2's default allow-all is not there: the VPC's range, the frontend's port.
  expect(g.SecurityGroupEgress).toEqual([
    expect.objectContaining({ CidrIp: { 'Fn::GetAtt': [expect.stringMatching(/^NetworkVpc/), 'CidrBlock'] }, FromPort: 7233, ToPort: 7233, IpProtocol: 'tcp' }),
  ]);
  const ingress = ofType(json, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties);
  const egress = ofType(json, 'AWS::EC2::SecurityGroupEgress').map(([, r]) => r.Properties);
  expect(egress.filter((x) => JSON.stringify(x.GroupId).includes(uiGroup))).toEqual([]);
  expect(ingress.filter((i) => JSON.stringify(i.GroupId).includes(uiGroup))).toEqual([
    expect.objectContaining({ SourceSecurityGroupId: { 'Fn::GetAtt': [instanceGroup, 'GroupId'] }, FromPort: 8080, ToPort: 8080 }),
  ]);
  // The frontend's port admits it; nothing else of the servers' does.
  expect(ingress.filter((i) => JSON.stringify(i.SourceSecurityGroupId ?? '').includes(uiGroup) && JSON.stringify(i.GroupId).includes(serverGroup))).toEqual([
    expect.objectContaining({ FromPort: 7233, ToPort: 7233 }),
  ]);
});

test('its task role holds nothing; the main pool may open Session Manager sessions and the benchmark pool may not', () => {
  const role = logicalId(json, 'AWS::IAM::Role', '/WebUi/TaskRole/Resource');
  const policies = ofType(json, 'AWS::IAM::Policy').map(([, p]) => p.Properties);
  expect(policies.filter((p) => JSON.stringify(p.Roles).includes(role))).toEqual([]);
  expect(R[role].Properties.ManagedPolicyArns).toBeUndefined();
  const ofRole = (suffix: string) => {
    const id = logicalId(json, 'AWS::IAM::Role', suffix);
    return JSON.stringify(policies.filter((p) => JSON.stringify(p.Roles).includes(id)));
  };
  expect(ofRole('/Capacity/MainAsg/InstanceRole/Resource')).toContain('ssmmessages:OpenDataChannel');
  expect(ofRole('/Capacity/MainAsg/InstanceRole/Resource')).toContain('ssm:UpdateInstanceInformation');
  expect(ofRole('/Capacity/BenchmarkAsg/InstanceRole/Resource')).not.toContain('ssm');
});
