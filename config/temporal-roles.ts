/** The Temporal server roles, each its own ECS service, in the order they start. */
export const TEMPORAL_ROLES = ['history', 'matching', 'frontend', 'worker'] as const;
export type TemporalRole = (typeof TEMPORAL_ROLES)[number];

/** The order they stop in when the environment hibernates: the reverse of their start. */
export const TEMPORAL_STOP_ORDER: readonly TemporalRole[] = [...TEMPORAL_ROLES].reverse();
