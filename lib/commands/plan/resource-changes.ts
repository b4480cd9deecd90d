import { fullDiff, ResourceImpact } from '@aws-cdk/cloudformation-diff';

/**
 * What CloudFormation would do to each resource when a stack moves from one template to
 * another, judged offline from the resource specification (no change set, no account).
 */

/** Resources whose replacement or removal loses data, or strands something that holds data. */
export const STATEFUL_TYPES: ReadonlySet<string> = new Set([
  'AWS::RDS::DBCluster',
  'AWS::RDS::DBInstance',
  'AWS::RDS::DBSubnetGroup',
  'AWS::SecretsManager::Secret',
  'AWS::KMS::Key',
  'AWS::EC2::VPC',
  'AWS::EC2::Subnet',
  'AWS::DSQL::Cluster',
  'AWS::DynamoDB::Table',
  'AWS::OpenSearchService::Domain',
  'AWS::Logs::LogGroup',
]);

/**
 * Property updates that CloudFormation applies in place but with an interruption ("Update
 * requires: Some interruptions" in the resource reference), and what that means here.
 */
const INTERRUPTING: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'AWS::RDS::DBInstance': {
    DBInstanceClass:
      'the instance restarts on the new class: a few minutes without it (for a writer, no writes to its cluster; Aurora fails over to a reader when there is one)',
    DBParameterGroupName: 'the instance reboots to apply the new parameter group: about a minute without it',
    EngineVersion: 'the instance restarts on the new engine version: minutes without it',
  },
  'AWS::RDS::DBCluster': {
    EngineVersion: 'every instance of the cluster restarts on the new engine version: minutes without the cluster',
    DBClusterParameterGroupName: 'static parameters apply when the instances reboot',
    Port: 'the cluster restarts on the new port, and clients must follow',
  },
  'AWS::OpenSearchService::Domain': {
    EngineVersion: 'a blue/green deployment: the domain serves throughout, slower while shards copy',
  },
};

/** Aurora PostgreSQL cluster parameters that apply only at a reboot (the static ones this project sets). */
const STATIC_PARAMETERS: ReadonlySet<string> = new Set(['rds.logical_replication']);

/**
 * Property updates that are in place and uninterrupted but carry a consequence worth saying,
 * by the values they move between.
 */
const NOTES: Readonly<Record<string, Readonly<Record<string, (from: unknown, to: unknown) => string | undefined>>>> = {
  'AWS::RDS::DBClusterParameterGroup': {
    Parameters: (from, to) => {
      const changed = Object.keys({ ...(from as object), ...(to as object) }).filter(
        (k) => STATIC_PARAMETERS.has(k) && (from as any)?.[k] !== (to as any)?.[k],
      );
      return changed.length
        ? `${changed.join(', ')} ${changed.length > 1 ? 'are' : 'is'} static: the clusters take the new value only when their writer reboots (aws rds reboot-db-instance, in a quiet moment: about a minute without the cluster); until then an online move is refused (wal_level is not logical)`
        : undefined;
    },
  },
  'AWS::RDS::DBCluster': {
    ServerlessV2ScalingConfiguration: (_from, to) =>
      to === undefined ? 'no Serverless v2 instance is left in the cluster: it keeps its last range, unused, until one returns' : undefined,
    StorageType: (from, to) =>
      from === 'aurora-iopt1' && to !== 'aurora-iopt1'
        ? 'back to Standard from I/O-Optimized: AWS allows this once every 30 days, so the switch back to I/O-Optimized and out again cannot be repeated within a month'
        : to === 'aurora-iopt1'
          ? 'to I/O-Optimized: no I/O charges from now on, compute and storage dearer (npm run cost prices both)'
          : undefined,
  },
};

const UNSAFE: ReadonlySet<ResourceImpact> = new Set([
  ResourceImpact.WILL_REPLACE,
  ResourceImpact.MAY_REPLACE,
  ResourceImpact.WILL_DESTROY,
  ResourceImpact.WILL_ORPHAN,
]);

export interface ResourceChange {
  readonly logicalId: string;
  readonly type: string;
  /** The construct path (`aws:cdk:path`), when the template carries it. */
  readonly path?: string;
  readonly impact: ResourceImpact;
  /** Changed properties, each with its own impact (e.g. `DBInstanceClass` WILL_UPDATE). */
  readonly properties: ReadonlyArray<{
    readonly name: string;
    readonly impact: ResourceImpact;
    readonly from?: unknown;
    readonly to?: unknown;
    readonly interruption?: string;
  }>;
  /** In place, but with an interruption: what each interrupting property's update means. */
  readonly interruptions: readonly string[];
  /** In place, without an interruption, but with a consequence (NOTES). */
  readonly notes: readonly string[];
  readonly stateful: boolean;
  /** Stateful and replaced, destroyed or orphaned. */
  readonly unsafe: boolean;
}

export type CfnTemplate = Record<string, any>;

/**
 * Both templates without the resources they hold identically and that refer to nothing that
 * changes: a resource's impact depends on its own properties and on what it references (a
 * replaced cluster replaces the instance that names it), so those stay, transitively. A phase
 * switch leaves most resources alone, so the diff has a fraction of the work.
 */
function withoutUnchanged(from: CfnTemplate, to: CfnTemplate): [CfnTemplate, CfnTemplate] {
  const a: Record<string, unknown> = from.Resources ?? {};
  const b: Record<string, unknown> = to.Resources ?? {};
  const text = new Map(Object.entries(b).map(([id, r]) => [id, JSON.stringify(r)]));
  const kept = new Set([...Object.keys(a), ...Object.keys(b)].filter((id) => !(id in a) || !(id in b) || JSON.stringify(a[id]) !== text.get(id)));
  // A Ref, a GetAtt or DependsOn names the id in quotes; an Fn::Sub string as ${id} or ${id.Attribute}.
  const referrers = new Map<string, string[]>();
  for (const [id, body] of text)
    for (const [, quoted, substituted] of body.matchAll(/"([A-Za-z0-9]+)"|\$\{([A-Za-z0-9]+)[.}]/g)) {
      const target = quoted ?? substituted;
      if (target !== id && (target in a || target in b))
        referrers
          .set(target, referrers.get(target) ?? [])
          .get(target)!
          .push(id);
    }
  for (const queue = [...kept]; queue.length;)
    for (const id of referrers.get(queue.pop()!) ?? [])
      if (!kept.has(id)) {
        kept.add(id);
        queue.push(id);
      }
  const pick = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([id]) => kept.has(id)));
  return [
    { ...from, Resources: pick(a) },
    { ...to, Resources: pick(b) },
  ];
}

/** Every resource that changes between two templates of the same stack. */
export function resourceChanges(from: CfnTemplate, to: CfnTemplate): ResourceChange[] {
  const diff = fullDiff(...withoutUnchanged(from, to));
  const changes: ResourceChange[] = [];
  diff.resources.forEachDifference((logicalId, d) => {
    if (!d.isDifferent) return;
    const type = d.newResourceType ?? d.oldResourceType ?? 'unknown';
    const resource = to.Resources?.[logicalId] ?? from.Resources?.[logicalId];
    const path = resource?.Metadata?.['aws:cdk:path'];
    // An Aurora reader holds no data of its own (the cluster volume does): adding or removing one
    // is capacity, not data. A writer that goes is still unsafe: its cluster would be left without one.
    const auroraMember = type === 'AWS::RDS::DBInstance' && resource?.Properties?.DBClusterIdentifier !== undefined && /\/Reader\d+\//.test(String(path ?? ''));
    const stateful = STATEFUL_TYPES.has(type) && !(auroraMember && (d.isAddition || d.isRemoval));
    const properties = Object.entries(d.propertyUpdates).map(([name, p]) => {
      const impact = p.changeImpact ?? ResourceImpact.WILL_UPDATE;
      const interruption = impact === ResourceImpact.WILL_UPDATE ? INTERRUPTING[type]?.[name] : undefined;
      return { name, impact, from: p.oldValue, to: p.newValue, ...(interruption ? { interruption } : {}) };
    });
    changes.push({
      logicalId,
      type,
      ...(typeof path === 'string' ? { path } : {}),
      impact: d.changeImpact,
      properties,
      interruptions: properties.flatMap((p) => (p.interruption ? [`${p.name}: ${p.interruption}`] : [])),
      notes: [
        ...(auroraMember && d.isAddition ? ['a new reader in the cluster: it serves once created, with the data the cluster already holds'] : []),
        ...(auroraMember && d.isRemoval ? ['a reader leaves the cluster: its reads move to the others; the data stays in the cluster volume'] : []),
        ...properties.flatMap((p) => {
          const note = p.impact === ResourceImpact.WILL_UPDATE ? NOTES[type]?.[p.name]?.(p.from, p.to) : undefined;
          return note ? [`${p.name}: ${note}`] : [];
        }),
      ],
      stateful,
      unsafe: stateful && UNSAFE.has(d.changeImpact),
    });
  });
  return changes;
}
