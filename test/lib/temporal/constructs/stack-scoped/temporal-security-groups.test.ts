import { App, Stack } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Template } from 'aws-cdk-lib/assertions';
import { TEMPORAL_ROLES, type TemporalEnvironment, loadCatalog } from '../../../../../config';
import { TemporalSecurityGroups } from '../../../../../lib/temporal/constructs/stack-scoped/temporal-security-groups';

const PORTS = loadCatalog().temporal.environment.ports;

function groupsOf(ports: TemporalEnvironment['ports']) {
  const stack = new Stack(new App(), 'S');
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 0, subnetConfiguration: [{ name: 'private', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
  const groups = new TemporalSecurityGroups(stack, { vpc, ports });
  const id = (sg: ec2.SecurityGroup) => stack.getLogicalId(sg.node.defaultChild as ec2.CfnSecurityGroup);
  const template = Template.fromStack(stack);
  const rules = (type: string) => Object.values(template.findResources(type)).map((r) => r.Properties as Record<string, any>);
  return {
    servers: id(groups.servers),
    clients: id(groups.clients),
    template,
    ingress: rules('AWS::EC2::SecurityGroupIngress'),
    egress: rules('AWS::EC2::SecurityGroupEgress'),
  };
}

const from = (rule: Record<string, any>) => rule.SourceSecurityGroupId?.['Fn::GetAtt']?.[0];
const into = (rule: Record<string, any>) => rule.GroupId['Fn::GetAtt'][0];
const span = (rule: Record<string, any>) => [rule.FromPort, rule.ToPort];

test("servers admit each other on every role's gRPC and membership port, one port per rule, and nothing else", () => {
  const { servers, clients, ingress } = groupsOf(PORTS);
  const expected = TEMPORAL_ROLES.flatMap((r) => [PORTS[r].grpc, PORTS[r].membership])
    .sort()
    .map((p) => [p, p]);
  expect(
    ingress
      .filter((r) => into(r) === servers && from(r) === servers)
      .map(span)
      .sort(),
  ).toEqual(expected);
  expect(ingress.filter((r) => into(r) === servers && from(r) === clients).map(span)).toEqual([[PORTS.frontend.grpc, PORTS.frontend.grpc]]);
  expect(ingress.filter((r) => into(r) === clients)).toEqual([]);
  expect(ingress.filter((r) => r.CidrIp !== undefined || r.CidrIpv6 !== undefined)).toEqual([]);
});

test('both groups reach AWS APIs over HTTPS only; the servers reach each other on the role ports, the clients the frontend alone', () => {
  const { servers, clients, template, egress } = groupsOf(PORTS);
  for (const sg of Object.values(template.findResources('AWS::EC2::SecurityGroup'))) {
    const inline = (sg.Properties.SecurityGroupEgress as Record<string, any>[]).filter((r) => r.CidrIp !== '255.255.255.255/32');
    expect(inline).toEqual([expect.objectContaining({ CidrIp: '0.0.0.0/0', FromPort: 443, ToPort: 443, IpProtocol: 'tcp' })]);
  }
  const to = (r: Record<string, any>) => r.DestinationSecurityGroupId['Fn::GetAtt'][0];
  const rolePorts = TEMPORAL_ROLES.flatMap((r) => [PORTS[r].grpc, PORTS[r].membership])
    .sort()
    .map((p) => [p, p]);
  expect(
    egress
      .filter((r) => into(r) === servers && to(r) === servers)
      .map(span)
      .sort(),
  ).toEqual(rolePorts);
  expect(egress.filter((r) => into(r) === clients).map((r) => [to(r), ...span(r)])).toEqual([[servers, PORTS.frontend.grpc, PORTS.frontend.grpc]]);
  expect(egress).toHaveLength(rolePorts.length + 1);
});

test('the ports come from config: a moved frontend port moves both rules that name it', () => {
  const moved = structuredClone(PORTS);
  moved.frontend.grpc = 17233;
  const { servers, clients, ingress } = groupsOf(moved);
  expect(ingress.filter((r) => into(r) === servers && from(r) === clients).map(span)).toEqual([[17233, 17233]]);
  expect(ingress.filter((r) => from(r) === servers).map((r) => r.FromPort)).toContain(17233);
  expect(ingress.map((r) => r.FromPort)).not.toContain(PORTS.frontend.grpc);
});
