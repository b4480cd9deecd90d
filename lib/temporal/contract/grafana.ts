import { stringify } from 'yaml';
import type { TemporalEnvironment, TemporalPreset } from '../../../config';
import { PROMETHEUS_DATASOURCE, temporalDashboard } from './dashboards';

/*
 * What the Grafana container is given: its settings as GF_* variables, and its provisioning
 * (the Managed Prometheus data source with SigV4, the dashboard provider, the dashboard) as
 * variables that the start command writes to files. Everything it writes lives under /tmp, the
 * task's scratch volume, because every task here runs on a read-only root filesystem.
 */

/** Where Grafana keeps its database, plugins and provisioning: under the scratch volume. */
const HOME = '/tmp/grafana';
const PROVISIONING = `${HOME}/provisioning`;
const DASHBOARDS = `${HOME}/dashboards`;

/** The variables the start command writes out, and the file each becomes. */
const FILES = {
  GRAFANA_DATASOURCES: `${PROVISIONING}/datasources/prometheus.yaml`,
  GRAFANA_DASHBOARD_PROVIDERS: `${PROVISIONING}/dashboards/temporal.yaml`,
  GRAFANA_DASHBOARD: `${DASHBOARDS}/temporal.json`,
} as const;

/**
 * The container's command: write each provisioning file from its variable, install the data
 * source's plugin at the configured version (Grafana's own CLI, from grafana.com through NAT;
 * Grafana checks the plugin's signature when it loads it), then hand over to the image's own
 * start script. POSIX sh and mkdir only, beside Grafana's CLI (the Alpine image's busybox).
 */
export function grafanaStartCommand(pluginVersion: string): string {
  const dirs = [...new Set(Object.values(FILES).map((f) => f.slice(0, f.lastIndexOf('/'))))];
  return [
    'set -eu',
    `mkdir -p ${dirs.join(' ')} ${HOME}/data ${HOME}/plugins ${HOME}/logs`,
    ...Object.entries(FILES).map(([variable, file]) => `printf '%s\\n' "$${variable}" > ${file}`),
    `grafana cli --pluginsDir ${HOME}/plugins plugins install ${PROMETHEUS_DATASOURCE.type} ${pluginVersion}`,
    'exec /run.sh',
  ].join('\n');
}

export interface GrafanaEndpoints {
  /** The workspace's Prometheus-compatible endpoint (ends in `/`): Grafana queries it with SigV4. */
  readonly prometheusUrl: string;
  readonly region: string;
  /** How often the collectors scrape: Grafana's smallest sensible step. */
  readonly scrapeInterval: string;
}

/**
 * Grafana's environment. Nobody signs in: anonymous visitors are viewers, who see and inspect the
 * dashboard (Explore needs an editor since Grafana 12, and an editor could save alert rules whose
 * queries the workspace bills), there is no login form and no admin user, so no password exists
 * to leak. Nothing is fetched from the internet but the data source's plugin
 * (the start command's one install): no plugins preinstalled, no update checks, no news, no
 * usage reports.
 */
export function grafanaEnvironment(environment: TemporalEnvironment, preset: TemporalPreset, endpoints: GrafanaEndpoints): Record<string, string> {
  const d = environment.dashboards;
  return {
    GF_SERVER_HTTP_PORT: String(d.port),
    GF_PATHS_DATA: `${HOME}/data`,
    GF_PATHS_LOGS: `${HOME}/logs`,
    GF_PATHS_PLUGINS: `${HOME}/plugins`,
    GF_PATHS_PROVISIONING: PROVISIONING,
    GF_AUTH_ANONYMOUS_ENABLED: 'true',
    GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer',
    GF_AUTH_DISABLE_LOGIN_FORM: 'true',
    GF_AUTH_BASIC_ENABLED: 'false',
    GF_SECURITY_DISABLE_INITIAL_ADMIN_CREATION: 'true',
    GF_AUTH_SIGV4_AUTH_ENABLED: 'true',
    // The AWS SDK's default chain: in ECS, the task role's credentials.
    GF_AWS_ALLOWED_AUTH_PROVIDERS: 'default',
    GF_PLUGINS_PREINSTALL_DISABLED: 'true',
    GF_ANALYTICS_REPORTING_ENABLED: 'false',
    GF_ANALYTICS_CHECK_FOR_UPDATES: 'false',
    GF_ANALYTICS_CHECK_FOR_PLUGIN_UPDATES: 'false',
    GF_NEWS_NEWS_FEED_ENABLED: 'false',
    GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH: FILES.GRAFANA_DASHBOARD,
    ...grafanaProvisioning(environment, preset, endpoints),
  };
}

/** The three provisioning files, by the variable that carries each. */
export function grafanaProvisioning(environment: TemporalEnvironment, preset: TemporalPreset, endpoints: GrafanaEndpoints): Record<keyof typeof FILES, string> {
  const yaml = (o: unknown) => stringify(o, { lineWidth: 0 });
  return {
    GRAFANA_DATASOURCES: yaml({
      apiVersion: 1,
      datasources: [
        {
          name: 'Managed Prometheus',
          uid: PROMETHEUS_DATASOURCE.uid,
          type: PROMETHEUS_DATASOURCE.type,
          access: 'proxy',
          url: endpoints.prometheusUrl,
          isDefault: true,
          editable: false,
          jsonData: {
            httpMethod: 'POST',
            timeInterval: endpoints.scrapeInterval,
            sigV4Auth: true,
            sigV4AuthType: 'default',
            sigV4Region: endpoints.region,
          },
        },
      ],
    }),
    GRAFANA_DASHBOARD_PROVIDERS: yaml({
      apiVersion: 1,
      providers: [
        {
          name: 'temporal',
          type: 'file',
          disableDeletion: true,
          allowUiUpdates: false,
          options: { path: DASHBOARDS },
        },
      ],
    }),
    GRAFANA_DASHBOARD: JSON.stringify(temporalDashboard(preset.store.engine, preset.benchmark.namespace, environment.dashboards.refresh)),
  };
}

/** The container's health check: Grafana's own /api/health, with the busybox wget of its Alpine image. */
export const grafanaHealthCheck = (port: number) => `wget -q -O /dev/null http://127.0.0.1:${port}/api/health`;
