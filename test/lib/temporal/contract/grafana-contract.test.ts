import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { satisfies } from 'semver';
import { parse } from 'yaml';
import { resolveScenario, type TemporalScenario } from '../../../../config';
import { temporalDashboard } from '../../../../lib/temporal/contract/dashboards';
import { grafanaEnvironment, grafanaHealthCheck, grafanaProvisioning, grafanaStartCommand } from '../../../../lib/temporal/contract/grafana';

/*
 * The Grafana task held to what Grafana, its image and the data source's plugin expect
 * (test/fixtures/grafana, recorded from their sources). Grafana cannot run in CI; these tests are
 * how a misspelt setting, a field Grafana ignores, a release that does not exist or a provisioning
 * value Grafana would rewrite fails before a deploy does.
 */

const ROOT = join(__dirname, '../../../..');
const contract = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/grafana/contract.json'), 'utf8'));
const { environment, preset } = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const endpoints = { prometheusUrl: 'https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-1/', region: 'eu-west-1', scrapeInterval: '15s' };
const env = grafanaEnvironment(environment, preset, endpoints);
const provisioning = grafanaProvisioning(environment, preset, endpoints);
const datasource = parse(provisioning.GRAFANA_DATASOURCES).datasources[0];
const provider = parse(provisioning.GRAFANA_DASHBOARD_PROVIDERS).providers[0];

/** Grafana's name for a setting's variable, by the recorded rule. */
const variableOf = ({ section, key }: { section: string; key: string }) => `GF_${section}_${key}`.toUpperCase().replace(/[.-]/g, '_');

/** The GF_ variables that name no setting Grafana has (Grafana ignores them without a word). */
function unknownSettings(variables: Record<string, string>): string[] {
  const known = new Set<string>(contract.settings.keys.map(variableOf));
  return Object.keys(variables).filter((v) => v.startsWith('GF_') && !known.has(v));
}

/** Keys of `o` outside `allowed`. */
const extraKeys = (o: object, allowed: readonly string[]) => Object.keys(o).filter((k) => !allowed.includes(k));

test('the image and the plugin are the releases this record was read at', () => {
  expect(environment.images.grafana).toMatchObject({ registry: `docker.io/grafana/grafana:${contract.grafana.version}` });
  expect(environment.images.grafana.user).toBe(contract.image.user);
  expect(environment.dashboards.pluginVersion).toBe(contract.plugin.version);
  expect(datasource.type).toBe(contract.plugin.id);
});

test('the plugin release has a backend for the arm64 instances every task here runs on', () => {
  expect(contract.plugin.backendPlatforms).toContain('linux_arm64');
});

test("the plugin release supports the image's Grafana", () => {
  expect(satisfies(contract.grafana.version, contract.plugin.grafanaDependency)).toBe(true);
  // The check can fail: a Grafana the plugin leaves out.
  expect(satisfies('12.1.6', contract.plugin.grafanaDependency)).toBe(false);
});

test('every GF_ variable names a setting Grafana reads', () => {
  expect(unknownSettings(env)).toEqual([]);
  // A setting Grafana 12 removed is not one it reads, however long it was in defaults.ini.
  const removed = contract.settings.removed.map(variableOf);
  expect(unknownSettings(Object.fromEntries(removed.map((v: string) => [v, 'true'])))).toEqual(removed);
  // The check can fail: one letter short, or a section Grafana does not have.
  expect(unknownSettings({ ...env, GF_AUTH_ANONYMOUS_ENABLE: 'true', GF_ANONYMOUS_ENABLED: 'true' })).toEqual([
    'GF_AUTH_ANONYMOUS_ENABLE',
    'GF_ANONYMOUS_ENABLED',
  ]);
});

test("the paths are the image's start script's variables, and the plugin is installed where Grafana loads plugins from", () => {
  for (const v of contract.image.pathVariables) expect(env[v]).toMatch(/^\/tmp\/grafana\//);
  const command = grafanaStartCommand(environment.dashboards.pluginVersion);
  const install = /^grafana cli --pluginsDir (\S+) plugins install (\S+) (\S+)$/m.exec(command);
  expect(install?.slice(1)).toEqual([env.GF_PATHS_PLUGINS, contract.plugin.id, contract.plugin.version]);
  expect(command.trimEnd().split('\n').at(-1)).toBe(`exec ${contract.image.entrypoint}`);
  expect(grafanaHealthCheck(environment.dashboards.port)).toContain(`:${environment.dashboards.port}${contract.grafana.healthPath}`);
});

test('the data source and the provider use only fields Grafana reads, and SigV4 settings the plugin reads', () => {
  expect(extraKeys(datasource, contract.provisioning.datasourceFields)).toEqual([]);
  expect(extraKeys(datasource.jsonData, Object.keys(contract.plugin.jsonData))).toEqual([]);
  expect(extraKeys(provider, contract.provisioning.providerFields)).toEqual([]);
  expect(extraKeys(provider.options, contract.provisioning.providerOptions)).toEqual([]);
  // The SDK reads the region and type only when SigV4 is on.
  expect(datasource.jsonData).toMatchObject({ sigV4Auth: true, sigV4Region: endpoints.region, timeInterval: endpoints.scrapeInterval });
});

test("the SigV4 type is one the plugin knows and Grafana's settings allow, and only that one is allowed", () => {
  expect(contract.plugin.authTypes).toContain(datasource.jsonData.sigV4AuthType);
  expect(env.GF_AWS_ALLOWED_AUTH_PROVIDERS.split(',')).toEqual([datasource.jsonData.sigV4AuthType]);
});

test('no provisioning file holds a $, which Grafana would expand from its environment', () => {
  for (const file of ['GRAFANA_DATASOURCES', 'GRAFANA_DASHBOARD_PROVIDERS'] as const) expect(provisioning[file]).not.toContain('$');
  // The dashboard file is not expanded: its $__rate_interval reaches the plugin as written.
  expect(provisioning.GRAFANA_DASHBOARD).toContain('$__rate_interval');
});

test("the dashboard is at Grafana's schema version and uses only panels Grafana has built in", () => {
  for (const store of ['dsql', 'aurora-postgresql'] as const) {
    const dashboard = temporalDashboard(store, preset.benchmark.namespace, environment.dashboards.refresh);
    expect(dashboard.schemaVersion).toBe(contract.grafana.dashboardSchemaVersion);
    expect(extraKeys(Object.fromEntries((dashboard.panels ?? []).map((p) => [p.type, 1])), contract.grafana.builtinPanelTypes)).toEqual([]);
  }
});
