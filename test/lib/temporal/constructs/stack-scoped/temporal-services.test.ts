import { CfnWaitConditionHandle, Duration } from 'aws-cdk-lib/core';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sd from 'aws-cdk-lib/aws-servicediscovery';
import { Template } from 'aws-cdk-lib/assertions';
import { TEMPORAL_ROLES, type TemporalRole } from '../../../../../config';
import { HibernationSwitch } from '../../../../../lib/temporal/constructs/hibernation-switch';
import { TemporalServices } from '../../../../../lib/temporal/constructs/stack-scoped/temporal-services';
import { temporalServiceName } from '../../../../../lib/temporal/contract/temporal-names';
import { hibernatable } from '../../../../support/synth';
import { scaffoldCapacity, scaffoldExecutionRole, scaffoldPrometheus, temporalScaffold } from '../../../../support/temporal-scaffold';

function servicesOf(name: string) {
  const scaffold = temporalScaffold(name);
  const { scenario, stack, vpc, subnets, servers, taskRole, store } = scaffold;
  const e = scenario.environment;
  const capacity = scaffoldCapacity(scaffold);
  capacity.cluster.addDefaultCloudMapNamespace({ name: 'temporal.internal', type: sd.NamespaceType.DNS_PRIVATE, vpc });
  const schema = new CfnWaitConditionHandle(stack, 'Schema');
  const services = new TemporalServices(stack, {
    environment: e,
    preset: scenario.preset,
    cluster: capacity.cluster,
    capacityProvider: capacity.main,
    subnets,
    securityGroup: servers,
    image: ecs.ContainerImage.fromRegistry('server'),
    user: '1000:1000',
    taskRole,
    executionRole: scaffoldExecutionRole(stack),
    store,
    endpoints: { storeHost: store.host, visibilityHost: 'search.example', frontendAddress: 'frontend.temporal.internal:7233' },
    prometheus: scaffoldPrometheus(stack),
    logRetention: logs.RetentionDays.ONE_WEEK,
    stopTimeout: Duration.seconds(60),
    hibernation: new HibernationSwitch(stack),
    maximumPercent: 150,
    after: schema,
  });
  const json = Template.fromStack(stack).toJSON() as { Resources: Record<string, any> };
  const service = (role: TemporalRole) =>
    Object.entries(json.Resources).find(([, r]) => r.Type === 'AWS::ECS::Service' && r.Properties.ServiceName === temporalServiceName(role))!;
  const task = (role: TemporalRole) =>
    Object.values(json.Resources).find((r) => r.Type === 'AWS::ECS::TaskDefinition' && r.Properties.Family === temporalServiceName(role));
  return { scenario, services, json, service, task, schemaId: stack.getLogicalId(schema), store, stack };
}

describe('temporal-150wps', () => {
  const { scenario, services, json, service, task, schemaId, store, stack } = servicesOf('temporal-150wps');
  const e = scenario.environment;

  test('one service per role under the name the commands and dashboards look up, sized from the preset', () => {
    for (const role of TEMPORAL_ROLES) {
      const [, svc] = service(role);
      expect(svc.Properties.DesiredCount).toEqual(hibernatable(scenario.preset.services[role].replicas));
      expect(task(role).Properties.Cpu).toBe(String(scenario.preset.services[role].vcpu * 1024));
    }
    expect(Object.keys(services.byRole)).toEqual([...TEMPORAL_ROLES]);
  });

  test('the schema task first, then history, matching, frontend, worker; `last` is the worker, what the fleet waits for', () => {
    const order = [schemaId, ...TEMPORAL_ROLES.map((r) => service(r)[0])];
    for (let i = 1; i < order.length; i++) expect(json.Resources[order[i]].DependsOn).toContain(order[i - 1]);
    expect(json.Resources[service('history')[0]].DependsOn).not.toContain(service('worker')[0]);
    expect(services.last).toBe(services.byRole.worker.service);
  });

  test('every service starts after what the store needs first (the limiter table)', () => {
    const table = stack.getLogicalId(store.limiter!.table.node.defaultChild as any);
    for (const role of TEMPORAL_ROLES) expect(service(role)[1].DependsOn).toContain(table);
  });

  test('the frontend alone registers in Cloud Map, with the configured TTL; the worker is probed on its membership port', () => {
    const registries = TEMPORAL_ROLES.filter((r) => service(r)[1].Properties.ServiceRegistries);
    expect(registries).toEqual(['frontend']);
    const dns = Object.values(json.Resources).filter((r) => r.Type === 'AWS::ServiceDiscovery::Service');
    expect(dns.map((r) => [r.Properties.Name, r.Properties.DnsConfig.DnsRecords])).toEqual([['frontend', [{ Type: 'A', TTL: 10 }]]]);
    expect(e.deployment.dnsTtl).toBe('10s');
    const probe = (role: TemporalRole) => task(role).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Server').HealthCheck.Command[1];
    expect(probe('worker')).toContain(`nc -z 127.0.0.1 ${e.ports.worker.membership} `);
    expect(probe('history')).toContain(`nc -z 127.0.0.1 ${e.ports.history.grpc} `);
  });

  test("the preset's surge: a rolling deploy within maximumPercent", () => {
    for (const role of TEMPORAL_ROLES) expect(service(role)[1].Properties.DeploymentConfiguration.MaximumPercent).toBeLessThanOrEqual(150);
  });

  test('each task carries a metrics collector beside the server', () => {
    for (const role of TEMPORAL_ROLES) expect(task(role).Properties.ContainerDefinitions.map((c: any) => c.Name)).toEqual(['Server', 'MetricsCollector']);
  });
});

test("each role's static config carries its own pool size, and no other role's (temporal-800wps)", () => {
  const { scenario, task } = servicesOf('temporal-800wps');
  const rendered = (role: TemporalRole) => JSON.stringify(task(role).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Server').Environment);
  const pool = (role: TemporalRole) => `maxConns: ${scenario.preset.pools[role].maxConns}\\n`;
  expect(new Set(TEMPORAL_ROLES.map(pool)).size).toBe(TEMPORAL_ROLES.length);
  for (const role of TEMPORAL_ROLES) expect(TEMPORAL_ROLES.filter((other) => rendered(role).includes(pool(other)))).toEqual([role]);
});
