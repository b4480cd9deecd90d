/**
 * Dynamic-config keys this project may set, each registered in the Temporal server
 * (`common/dynamicconfig/constants.go`), with the kind of value the server parses.
 *
 * The server only logs "unregistered key" for a key it does not know and runs on with its
 * default, so a typo silently does nothing; here it fails synth instead. Add a key after
 * checking it is registered in the server version of the image, and give `since` when it is
 * newer than the oldest server a store runs (the DSQL fork carries older upstream code):
 * a preset whose server predates it is refused. Keys are compared case-insensitively, as the
 * server does. test/integration/temporal-source.test.ts checks every key against the source
 * of the upstream release the local tests build.
 */
type DynamicConfigKind = 'int' | 'float' | 'bool' | 'duration';

export interface DynamicConfigKey {
  readonly kind: DynamicConfigKind;
  /** Smallest value that makes sense (numbers only). */
  readonly min?: number;
  /** The server's default, for the README and reviews. */
  readonly serverDefault: number | boolean | string;
  /** The first upstream release that registers the key; absent: every release the project runs. */
  readonly since?: string;
}

export const DYNAMIC_CONFIG_KEYS: Readonly<Record<string, DynamicConfigKey>> = {
  'frontend.rps': { kind: 'int', min: 1, serverDefault: 2400 },
  'frontend.namespaceRPS': { kind: 'int', min: 1, serverDefault: 2400 },
  // Despite the name: concurrent long-running requests (polls) per instance per API.
  'frontend.namespaceCount': { kind: 'int', min: 1, serverDefault: 1200 },
  'frontend.persistenceMaxQPS': { kind: 'int', min: 1, serverDefault: 2000 },
  'frontend.shutdownDrainDuration': { kind: 'duration', serverDefault: '0s' },
  'frontend.shutdownFailHealthCheckDuration': { kind: 'duration', serverDefault: '0s' },
  // Cancels a stopping worker's outstanding polls, so no task is handed to a worker on its way out.
  'frontend.enableCancelWorkerPollsOnShutdown': { kind: 'bool', serverDefault: false, since: '1.31.0' },
  'matching.numTaskqueueWritePartitions': { kind: 'int', min: 1, serverDefault: 4 },
  'matching.numTaskqueueReadPartitions': { kind: 'int', min: 1, serverDefault: 4 },
  'matching.forwarderMaxOutstandingPolls': { kind: 'int', min: 0, serverDefault: 1 },
  'matching.forwarderMaxRatePerSecond': { kind: 'float', min: 1, serverDefault: 10 },
  'matching.forwarderMaxOutstandingTasks': { kind: 'int', min: 0, serverDefault: 1 },
  'matching.maxTaskBatchSize': { kind: 'int', min: 1, serverDefault: 100 },
  'matching.getTasksBatchSize': { kind: 'int', min: 1, serverDefault: 1000 },
  'matching.persistenceMaxQPS': { kind: 'int', min: 1, serverDefault: 3000 },
  'matching.shutdownDrainDuration': { kind: 'duration', serverDefault: '0s' },
  // How long other hosts keep a cached connection to a matching host that left the ring (absent from v1.31.0).
  'matching.connectionCloseDelay': { kind: 'duration', serverDefault: '30s', since: '1.31.2' },
  'history.persistenceMaxQPS': { kind: 'int', min: 1, serverDefault: 9000 },
  'history.shutdownDrainDuration': { kind: 'duration', serverDefault: '0s' },
  // How long other hosts keep a cached connection to a history host that left the ring (absent from v1.31.0).
  'history.connectionCloseDelay': { kind: 'duration', serverDefault: '60s', since: '1.31.2' },
  'history.startupMembershipJoinDelay': { kind: 'duration', serverDefault: '0s' },
  'history.transferTaskBatchSize': { kind: 'int', min: 1, serverDefault: 100 },
  'history.timerTaskBatchSize': { kind: 'int', min: 1, serverDefault: 100 },
  // Off by default in 1.30 (and so in the DSQL fork), on from 1.32: presets set it, so a preset runs alike on either server.
  'system.enableActivityEagerExecution': { kind: 'bool', serverDefault: true },
  'system.enableEagerWorkflowStart': { kind: 'bool', serverDefault: true },
  'system.transactionSizeLimit': { kind: 'int', min: 1, serverDefault: 4194304 },
};

/** Keys people put in dynamic config that belong elsewhere, with where they belong. */
export const MISPLACED_DYNAMIC_CONFIG_KEYS: Readonly<Record<string, string>> = {
  'history.numHistoryShards':
    'the history shard count is static server config, not dynamic config; it is ' +
    'environment.persistence.numHistoryShards and can never change after the first deploy',
  'persistence.maxConns': "the pool size is static SQL config, per role: the preset's pools.<role>.maxConns",
  'persistence.maxIdleConns': "the pool size is static SQL config, per role: the preset's pools.<role>.maxIdleConns",
};
