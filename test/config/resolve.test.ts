import { ConfigError, resolveScenario, type FolioScenario } from '../../config';
import type { CatalogInput } from '../../config/schema';
import { editedCatalog } from '../support/synth';

const phaseIndex = (c: any, name: string) => c.folio.phases.findIndex((p: any) => p.name === name);
const phase = (name: string, edit: (p: any) => void) => editedCatalog((c) => edit(c.folio.phases[phaseIndex(c, name)]));
const preset = (name: string, edit: (p: any) => void) =>
  editedCatalog((c) => {
    // Presets share data objects (the seed's dynamic config); edit a copy of this one only.
    const i = c.temporal.scenarios.findIndex((s: any) => s.name === name);
    c.temporal.scenarios[i] = structuredClone(c.temporal.scenarios[i]);
    edit(c.temporal.scenarios[i]);
  });

// context, catalog, and the parts the one-line message must contain (bad value, what is valid).
const BAD_INPUTS: Array<[string, Record<string, unknown>, CatalogInput | undefined, RegExp[]]> = [
  ['no scenario', {}, undefined, [/no scenario given/, /-c scenario=<name>/, /valid: baseline, test1, .*test13/]],
  ['empty scenario', { scenario: '' }, undefined, [/no scenario given/, /valid: baseline/]],
  ['misspelled scenario', { scenario: 'tset12' }, undefined, [/unknown scenario "tset12"/, /did you mean "test12"/, /valid: baseline/]],
  ['unknown scenario, nothing close', { scenario: 'production' }, undefined, [/unknown scenario "production"; valid: baseline/]],
  ['misspelled context key', { scenario: 'test12', envname: 'b' }, undefined, [/unknown context key "envname"/, /did you mean "envName"/, /valid: scenario, envName, unprotect/]],
  ['bad envName', { scenario: 'test12', envName: 'Perf_2' }, undefined, [/envName "Perf_2" is not valid/, /a-z, 0-9/]],
  ['bad unprotect', { scenario: 'test12', unprotect: 'yes' }, undefined, [/unprotect "yes"/, /valid: true, false/]],
  ['ACU off the 0.5 grid', { scenario: 'test7' }, phase('test7', (p) => (p.serverlessAcu.max = 32.3)), [/scenario "test7" \(serverlessAcu.max\)/, /32.3 ACU is off the 0.5 grid/, /0 to 256 in steps of 0.5/]],
  ['ACU above 256', { scenario: 'test6' }, phase('test6', (p) => (p.serverlessAcu.max = 512)), [/scenario "test6"/, /512 ACU is outside 0-256/]],
  ['negative ACU', { scenario: 'test3' }, phase('test3', (p) => (p.serverlessAcu.min = -0.5)), [/-0.5 ACU is outside 0-256/]],
  ['max ACU below 1', { scenario: 'baseline' }, phase('baseline', (p) => (p.serverlessAcu.max = 0.5)), [/max 0.5 ACU is below 1/]],
  ['min above max', { scenario: 'test12' }, phase('test12', (p) => (p.serverlessAcu = { min: 64, max: 5 })), [/scenario "test12" \(serverlessAcu\)/, /min 64 ACU is above max 5 ACU/]],
  ['instance size not offered', { scenario: 'test2' }, phase('test2', (p) => (p.writerInstanceClass = 'db.r7g.3xlarge')), [/does not offer "db.r7g.3xlarge"/, /valid in r7g: db.r7g.large, .*db.r7g.16xlarge/]],
  ['instance family not offered', { scenario: 'test2' }, phase('test2', (p) => (p.writerInstanceClass = 'db.m7g.2xlarge')), [/no "m7g" family/, /valid families: r6g, .*r7g/]],
  ['not an instance class', { scenario: 'test2' }, phase('test2', (p) => (p.writerInstanceClass = 'r7g.2xlarge')), [/"r7g.2xlarge" is not an instance class/, /db.<family>.<size>/]],
  ['unknown module routed', { scenario: 'test5' }, phase('test5', (p) => (p.routedToServerless = ['mod-inventory-storge'])), [/scenario "test5"/, /unknown module "mod-inventory-storge"/, /did you mean "mod-inventory-storage"/, /valid: mod-agreements, /]],
  ['module that is not routable', { scenario: 'test2' }, phase('test2', (p) => p.routedToServerless.push('mod-users')), [/"mod-users" stays on the provisioned cluster/, /routable modules: mod-source-record-manager/]],
  ['module routed twice', { scenario: 'test2' }, phase('test2', (p) => p.routedToServerless.push('mod-source-record-storage')), [/module "mod-source-record-storage" is routed twice/]],
  ['cross-schema reads broken', { scenario: 'test9' }, phase('test9', (p) => (p.crossSchemaAcks = p.crossSchemaAcks.filter((a: any) => a.module !== 'mod-data-export'))), [/scenario "test9"/, /mod-data-export \(on serverless\) reads schemas that are on the other cluster: mod-users/, /crossSchemaAcks/]],
  ['cross-schema reads broken, many schemas', { scenario: 'test10' }, phase('test10', (p) => (p.crossSchemaAcks = p.crossSchemaAcks.filter((a: any) => a.module !== 'mod-fqm-manager'))), [/mod-fqm-manager \(on serverless\) reads schemas that are on the other cluster: mod-agreements, mod-circulation-storage, .*mod-users/]],
  ['acknowledgement of a read that is not split', { scenario: 'test1' }, phase('test1', (p) => p.crossSchemaAcks.push({ module: 'mod-data-export', readsFrom: ['mod-users'], reason: 'a reason that is long enough' })), [/acknowledges that mod-data-export reads mod-users across clusters, but it does not/, /split reads here: mod-source-record-storage/]],
  ['acknowledgement without a reason', { scenario: 'test1' }, phase('test1', (p) => (p.crossSchemaAcks[0].reason = 'ok')), [/needs a reason/]],
  ['misspelled phase field', { scenario: 'test9' }, phase('test9', (p) => (p.serverlessAcuu = p.serverlessAcu)), [/scenario "test9"/, /unknown field "serverlessAcuu"/, /did you mean "serverlessAcu"/, /valid: name, title, writerInstanceClass/]],
  ['wrong type in the environment', { scenario: 'test12' }, editedCatalog((c) => (c.folio.environment.database.port = '5432')), [/folio.environment.database.port/, /expected number/, /got "5432"/]],
  ['databases opened to the internet', { scenario: 'test12' }, editedCatalog((c) => c.folio.environment.clientCidrs.push('0.0.0.0/0')), [/must not open the databases to the internet/]],
  ['one availability zone', { scenario: 'test12' }, editedCatalog((c) => (c.folio.environment.availabilityZones = ['us-east-1a'])), [/at least 2 availability zones/]],
  ['scenario defined twice', { scenario: 'test12' }, editedCatalog((c) => c.folio.phases.push({ ...c.folio.phases[0] })), [/scenario "baseline" is defined twice/]],
  ['misspelled Temporal scenario', { scenario: 'temporal-150-wps' }, undefined, [/unknown scenario "temporal-150-wps"/, /did you mean "temporal-150wps"/, /valid: .*temporal-25wps, .*temporal-150wps/]],
  ['unregistered dynamic-config key', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.dynamicConfig['matching.numTaskQueueWritePartition'] = 32)), [/scenario "temporal-150wps" \(dynamicConfig.matching.numTaskQueueWritePartition\)/, /not a registered dynamic-config key/, /did you mean "matching.numTaskqueueWritePartitions"/, /valid: frontend.rps, /]],
  ['shard count as dynamic config', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.dynamicConfig['history.numHistoryShards'] = 8192)), [/"history.numHistoryShards" is not dynamic config/, /static/, /can never change after the first deploy/]],
  ['dynamic-config value of the wrong kind', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.dynamicConfig['frontend.rps'] = '8000')), [/frontend.rps = "8000" is not valid/, /valid: a whole number/]],
  ['dynamic-config value below its minimum', { scenario: 'temporal-100wps' }, preset('temporal-100wps', (p) => (p.dynamicConfig['matching.numTaskqueueReadPartitions'] = 0)), [/matching.numTaskqueueReadPartitions = 0 is below 1/]],
  ['replicas that cannot fit the ASG', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.services.history.replicas = 12)), [/scenario "temporal-150wps" \(capacity.main\)/, /(history|frontend): \d+ task\(s\) of \d vCPU \/ \d+ MiB do not fit during a rolling deploy of history/, /10 × m7g.2xlarge/, /short of (CPU|awsvpc task slots)/, /smallest main pool that fits is \d+ instances/]],
  ['a task larger than any instance', { scenario: 'temporal-25wps' }, preset('temporal-25wps', (p) => (p.services.history.vcpu = 16)), [/history: 2 task\(s\) of 16 vCPU/, /short of CPU/, /no number of these instances fits/]],
  ['benchmark fleet too big for its ASG', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.benchmark.workers.replicas = 12)), [/\(capacity.benchmark\)/, /benchmark-worker: /, /4 × m7g.2xlarge/]],
  ['unknown EC2 instance type', { scenario: 'temporal-50wps' }, preset('temporal-50wps', (p) => (p.capacity.main.instanceType = 'm7g.2xlarg')), [/unknown instance type "m7g.2xlarg"/, /did you mean "m7g.2xlarge"/, /valid: m7g.large/]],
  ['vCPU off the ECS grid', { scenario: 'temporal-75wps' }, preset('temporal-75wps', (p) => (p.services.matching.vcpu = 0.3)), [/services.matching.vcpu/, /0.3 vCPU is not valid/, /steps of 0.125/]],
  ['OpenSearch nodes uneven over zones', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.visibility.instances = 4)), [/4 OpenSearch nodes cannot spread evenly over 3 availability zones/, /multiple of 3/]],
  ['unknown fleet state in config', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.benchmark.fleet = 'off')), [/benchmark.fleet/, /valid fleet states: running, parked, external/]],
  ['unknown fleet state on the command line', { scenario: 'temporal-150wps', fleet: 'zero' }, undefined, [/fleet "zero" is not valid/, /valid: running, parked, external/]],
  ['fleet given for a FOLIO phase', { scenario: 'test12', fleet: 'parked' }, undefined, [/fleet applies to Temporal scenarios only; "test12" is a FOLIO phase/]],
  ['ramp-up as long as the run', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.benchmark.rampUp = '5m')), [/ramp-up 5m is not shorter than the run \(5m\)/]],
  ['DSQL connection rate above the service limit', { scenario: 'temporal-150wps' }, editedCatalog((c) => (c.temporal.environment.persistence.distributedRateLimiter.clusterLimitPerSecond = 150)), [/at most 100 new connections\/s/, /valid: 1-100/]],
  ['envName too long for the OpenSearch domain', { scenario: 'temporal-150wps', envName: 'perf-team-twelve' }, undefined, [/envName "perf-team-twelve"/, /longer than 28 characters/, /at most 8 characters/]],
  ['two roles on one port', { scenario: 'temporal-150wps' }, editedCatalog((c) => (c.temporal.environment.ports.matching.grpc = 7234)), [/port 7234 is used twice/]],
  ['CPU alarm threshold above 100%', { scenario: 'test10' }, editedCatalog((c) => (c.folio.environment.observability.alarms.cpuHigh.percent = 150)), [/folio.environment.observability.alarms.cpuHigh.percent: 150% is not valid \(valid: above 0, at most 100\)/]],
  ['alarm period of zero minutes', { scenario: 'temporal-150wps' }, editedCatalog((c) => (c.temporal.environment.observability.alarms.tasksBelowDesired.minutes = 0)), [/tasksBelowDesired.minutes: 0 minutes is not valid \(valid: 1-1440\)/]],
  ['alarm address that is not an email', { scenario: 'test10' }, editedCatalog((c) => (c.folio.environment.observability.alarmEmails = ['perf-team'])), [/"perf-team" is not an email address/]],
  ['misspelled alarm setting', { scenario: 'temporal-150wps' }, editedCatalog((c) => (c.temporal.environment.observability.alarms.occConflicts = { perMinut: 100, minutes: 3 })), [/unknown field "perMinut" \(did you mean "perMinute"\?\); valid: perMinute, minutes/]],
  ['alarm setting left out', { scenario: 'test10' }, editedCatalog((c) => delete c.folio.environment.observability.alarms.cpuHigh.minutes), [/observability.alarms.cpuHigh.minutes: missing field "minutes" \(valid: number\)/]],
  ['duration that Go cannot parse', { scenario: 'temporal-150wps' }, preset('temporal-150wps', (p) => (p.benchmark.duration = '5 minutes')), [/"5 minutes" is not a duration/, /e.g. 30s, 55m/]],
];

describe('bad input gets one clear line', () => {
  test.each(BAD_INPUTS)('%s', (_, context, catalog, expected) => {
    let error: unknown;
    try {
      resolveScenario(context, catalog);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).not.toContain('\n');
    for (const part of expected) expect(message).toMatch(part);
  });

  test('covers at least 20 distinct cases', () => {
    expect(new Set(BAD_INPUTS.map(([name]) => name)).size).toBeGreaterThanOrEqual(20);
  });
});

describe('resolving a good scenario', () => {
  const s = resolveScenario({ scenario: 'test12' }) as FolioScenario;

  test('routes every module in config, seven of them to Serverless', () => {
    expect(s.routes).toHaveLength(s.modules.length);
    expect(s.routes.filter((r) => r.cluster === 'serverless').map((r) => r.module).sort()).toEqual(
      [...s.phase.routedToServerless].sort(),
    );
  });

  test('physical names do not depend on the scenario', () => {
    const other = resolveScenario({ scenario: 'baseline' }) as FolioScenario;
    expect(other.stackName).toBe(s.stackName);
    expect(other.environment.names).toEqual(s.environment.names);
    expect(other.routes.map((r) => r.secretName)).toEqual(s.routes.map((r) => r.secretName));
  });

  test('envName prefixes every physical name and the stack', () => {
    const p = resolveScenario({ scenario: 'test12', envName: 'perf2' }) as FolioScenario;
    expect(p.stackName).toBe('perf2-FolioHybridAurora');
    expect(p.environment.names).toEqual({
      provisionedCluster: 'perf2-folio-hybrid-provisioned',
      serverlessCluster: 'perf2-folio-hybrid-serverless',
      adminSecret: 'perf2/folio/db/admin',
      moduleSecretPrefix: 'perf2/folio/db/modules',
      routingParameter: '/perf2/folio/db/routing',
    });
    expect(p.routes[0].secretName).toMatch(/^perf2\/folio\/db\/modules\/mod-/);
  });

  test('protection is on unless unprotect=true is passed', () => {
    expect(s.protect).toBe(true);
    expect(resolveScenario({ scenario: 'test12', unprotect: 'false' }).protect).toBe(true);
    expect(resolveScenario({ scenario: 'test12', unprotect: 'true' }).protect).toBe(false);
  });

  test('CDK feature flags and CLI keys in context are not mistaken for typos', () => {
    expect(() =>
      resolveScenario({ scenario: 'test1', '@aws-cdk/core:checkSecretUsage': true, 'cli-telemetry': false, 'aws:cdk:enable-path-metadata': true }),
    ).not.toThrow();
  });

  test('the result is frozen', () => {
    expect(Object.isFrozen(s.phase.serverlessAcu)).toBe(true);
    expect(Object.isFrozen(s.routes)).toBe(true);
  });
});
