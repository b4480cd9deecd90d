import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { resolveScenario, type TemporalScenario } from '../../../../config';
import { PROMETHEUS_DATASOURCE, temporalDashboard } from '../../../../lib/temporal/contract/dashboards';
import { grafanaEnvironment, grafanaProvisioning, grafanaStartCommand } from '../../../../lib/temporal/contract/grafana';

/*
 * Grafana's start command, run in a real POSIX shell against a temporary directory in place of
 * /tmp/grafana, with stand-ins for Grafana's CLI and the image's /run.sh: it writes the three
 * provisioning files from their variables, installs the data source's plugin at config's
 * release, and stops before starting Grafana when a variable is missing or the install fails.
 */

const { environment, preset } = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
const endpoints = { prometheusUrl: 'https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-1/', region: 'eu-west-1', scrapeInterval: '15s' };
const env = grafanaEnvironment(environment, preset, endpoints);

function start(vars: Record<string, string>, cli: 'installs' | 'fails' = 'installs'): { status: number | null; home: string; stderr: string } {
  const home = mkdtempSync(join(tmpdir(), 'grafana-'));
  mkdirSync(join(home, 'bin'));
  writeFileSync(join(home, 'run.sh'), `#!/bin/sh\necho started > ${home}/started\n`, { mode: 0o755 });
  writeFileSync(join(home, 'bin/grafana'), `#!/bin/sh\necho "$@" > ${home}/cli\n${cli === 'fails' ? 'exit 1\n' : ''}`, { mode: 0o755 });
  const command = grafanaStartCommand(environment.dashboards.pluginVersion).replaceAll('/tmp/grafana', home).replace('exec /run.sh', `exec ${home}/run.sh`);
  const r = spawnSync('sh', ['-c', command], { env: { PATH: `${home}/bin:${process.env.PATH}`, ...vars }, encoding: 'utf8' });
  return { status: r.status, home, stderr: r.stderr };
}

test('it writes the data source, the provider and the dashboard from their variables, then starts Grafana', () => {
  const { status, home } = start(env);
  try {
    expect(status).toBe(0);
    expect(readFileSync(join(home, 'started'), 'utf8')).toBe('started\n');
    expect(readFileSync(join(home, 'cli'), 'utf8')).toBe(
      `cli --pluginsDir ${home}/plugins plugins install grafana-amazonprometheus-datasource ${environment.dashboards.pluginVersion}\n`,
    );
    const datasources = parse(readFileSync(join(home, 'provisioning/datasources/prometheus.yaml'), 'utf8'));
    expect(datasources.datasources).toEqual([
      expect.objectContaining({
        uid: PROMETHEUS_DATASOURCE.uid,
        type: 'grafana-amazonprometheus-datasource',
        url: endpoints.prometheusUrl,
        jsonData: expect.objectContaining({ sigV4Auth: true, sigV4AuthType: 'default', sigV4Region: 'eu-west-1', timeInterval: '15s' }),
      }),
    ]);
    // The provider reads the folder the dashboard is written to, and Grafana's home is that dashboard.
    const [provider] = parse(readFileSync(join(home, 'provisioning/dashboards/temporal.yaml'), 'utf8')).providers;
    expect(provider.options.path.replace('/tmp/grafana', home)).toBe(join(home, 'dashboards'));
    expect(env.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH).toBe('/tmp/grafana/dashboards/temporal.json');
    expect(JSON.parse(readFileSync(join(home, 'dashboards/temporal.json'), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(temporalDashboard('aurora-postgresql', preset.benchmark.namespace, environment.dashboards.refresh))),
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test.each(Object.keys(grafanaProvisioning(environment, preset, endpoints)))('the check can fail: without %s it stops, and Grafana never starts', (variable) => {
  const { [variable]: _, ...rest } = env;
  const { status, home, stderr } = start(rest);
  try {
    expect(status).not.toBe(0);
    expect(stderr).toContain(variable);
    expect(() => readFileSync(join(home, 'started'))).toThrow();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('the check can fail: a plugin that does not install stops it, and Grafana never starts', () => {
  const { status, home } = start(env, 'fails');
  try {
    expect(status).not.toBe(0);
    expect(() => readFileSync(join(home, 'started'))).toThrow();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('the command needs only a POSIX shell: dash parses it', () => {
  expect(() => execFileSync('dash', ['-n', '-c', grafanaStartCommand(environment.dashboards.pluginVersion)])).not.toThrow();
});
