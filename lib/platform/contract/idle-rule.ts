/*
 * The idle rule of an environment as data: the CloudWatch metrics it reads, the metric-math
 * expression over them, and how many one-minute datapoints in a row must breach. The stack
 * turns it into an alarm (lib/platform/constructs/idle-parking.ts); `idleSince` below evaluates the
 * same rule on recorded minutes the way CloudWatch evaluates the alarm, so the decision is
 * tested without an account. Missing datapoints never breach: a parked fleet or a stopped
 * cluster publishes nothing, and must not count as idle again.
 */

export interface IdleMetric {
  /** The metric-math id. */
  readonly id: string;
  readonly namespace: string;
  readonly metricName: string;
  readonly dimensions: Readonly<Record<string, string>>;
  readonly statistic: 'Maximum' | 'SampleCount';
}

/** One term of the rule: a metric's minute (or its fill when absent) against a bound. */
interface IdleTerm {
  readonly metric: string;
  /** The value a minute without a datapoint counts as. */
  readonly fill: number;
  readonly op: '>' | '==' | '<';
  readonly value: number;
}

export interface IdleRule {
  readonly family: string;
  /** What the alarm does when the rule holds: park the benchmark fleet, or stop Aurora clusters (`clusters`). */
  readonly action: 'park-fleet' | 'stop-clusters';
  /** The alarm's name after the topic's prefix. */
  readonly id: 'IdleFleet' | 'IdleClusters' | 'IdleStore';
  /** stop-clusters: the clusters it stops. */
  readonly clusters?: readonly string[];
  readonly metrics: readonly IdleMetric[];
  /**
   * `all`: every term holds (a minute with no datapoint at all is missing). `sum-at-most`: the
   * sum of the metrics is at most `value` (no fill: a stopped cluster is missing, not idle).
   */
  readonly rule: { readonly kind: 'all'; readonly terms: readonly IdleTerm[] } | { readonly kind: 'sum-at-most'; readonly value: number };
  readonly minutes: number;
  readonly description: string;
}

/** A cluster's client connections: what an Aurora cluster's idle rule reads. */
export const connections = (id: string, cluster: string): IdleMetric => ({
  id,
  namespace: 'AWS/RDS',
  metricName: 'DatabaseConnections',
  dimensions: { DBClusterIdentifier: cluster },
  statistic: 'Maximum',
});

/** The rule as one CloudWatch metric-math expression, 1 in a minute that breaches. */
export function idleExpression(rule: IdleRule): string {
  if (rule.rule.kind === 'sum-at-most') return `IF((${rule.metrics.map((m) => m.id).join(' + ')}) <= ${rule.rule.value}, 1, 0)`;
  const term = (t: IdleTerm) => `FILL(${t.metric}, ${t.fill}) ${t.op} ${t.value}`;
  return `IF(${rule.rule.terms.map(term).join(' AND ')}, 1, 0)`;
}

/** One minute of the rule's metrics: a value per metric id, absent where CloudWatch has no datapoint. */
export type IdleMinute = Readonly<Record<string, number | undefined>>;

/** Whether one minute breaches, does not, or is missing (no metric has a datapoint). */
export function minuteBreaches(rule: IdleRule, minute: IdleMinute): boolean | undefined {
  const present = rule.metrics.filter((m) => minute[m.id] !== undefined);
  if (rule.rule.kind === 'sum-at-most') {
    // Metric math aligns series by timestamp: a sum with a missing operand is missing.
    if (present.length < rule.metrics.length) return undefined;
    return present.reduce((s, m) => s + minute[m.id]!, 0) <= rule.rule.value;
  }
  // FILL gives every minute a value once any series has a datapoint in it.
  if (present.length === 0) return undefined;
  const holds = (t: IdleTerm) => {
    const v = minute[t.metric] ?? t.fill;
    return t.op === '>' ? v > t.value : t.op === '<' ? v < t.value : v === t.value;
  };
  return rule.rule.terms.every(holds);
}

/**
 * The first minute (index) at which the alarm goes into ALARM, as CloudWatch decides it: the
 * last `minutes` datapoints all breach, a missing one counting as not breaching. Undefined:
 * the environment is not parked in this window.
 */
export function idleSince(rule: IdleRule, minutes: readonly IdleMinute[]): number | undefined {
  let run = 0;
  for (let i = 0; i < minutes.length; i++) {
    run = minuteBreaches(rule, minutes[i]) === true ? run + 1 : 0;
    if (run >= rule.minutes) return i;
  }
  return undefined;
}
