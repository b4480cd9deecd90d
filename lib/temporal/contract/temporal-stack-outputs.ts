/*
 * The outputs (and the parameter) the Temporal data stack declares, by the name the code uses for them: the stack creates
 * exactly these keys and every command reads them from here, so a renamed output is a compile
 * error rather than a command that fails only on AWS (test/lib/stack-outputs.test.ts
 * checks every key a command reads against each family's synthesized templates).
 */

/** The Temporal stack's outputs. */
export const TEMPORAL_OUTPUTS = {
  scenario: 'Scenario',
  clusterName: 'ClusterName',
  frontendAddress: 'FrontendAddress',
  historyStoreEngine: 'HistoryStoreEngine',
  historyShards: 'HistoryShards',
  dsqlEndpoint: 'DsqlEndpoint',
  dsqlClusterId: 'DsqlClusterId',
  rateLimiterTable: 'RateLimiterTable',
  auroraEndpoint: 'AuroraEndpoint',
  auroraClusterId: 'AuroraClusterId',
  auroraSecretArn: 'AuroraSecretArn',
  visibilityEndpoint: 'VisibilityEndpoint',
  prometheusWorkspaceId: 'PrometheusWorkspaceId',
  benchmarkWorkerService: 'BenchmarkWorkerService',
  benchmarkAsgName: 'BenchmarkAsgName',
  mainAsgName: 'MainAsgName',
  uiAddress: 'UiAddress',
  grafanaAddress: 'GrafanaAddress',
  benchmarkCapacityProvider: 'BenchmarkCapacityProvider',
  generatorTaskDefinition: 'GeneratorTaskDefinition',
  benchmarkSecurityGroupId: 'BenchmarkSecurityGroupId',
  storeProbeTaskDefinition: 'StoreProbeTaskDefinition',
  serverSecurityGroupId: 'ServerSecurityGroupId',
  privateSubnets: 'PrivateSubnets',
} as const;

/**
 * The Temporal stack's one parameter: "true" while the environment is hibernated. `npm run
 * hibernate` and `npm run wake` set it; `cdk deploy` keeps a parameter's previous value
 * unless given one, so a deploy while hibernated stays hibernated.
 */
export const HIBERNATED_PARAMETER = 'Hibernated';

export type TemporalOutput = (typeof TEMPORAL_OUTPUTS)[keyof typeof TEMPORAL_OUTPUTS];
