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
  readonly properties: ReadonlyArray<{ readonly name: string; readonly impact: ResourceImpact; readonly from?: unknown; readonly to?: unknown }>;
  readonly stateful: boolean;
  /** Stateful and replaced, destroyed or orphaned. */
  readonly unsafe: boolean;
}

export type CfnTemplate = Record<string, any>;

/** Every resource that changes between two templates of the same stack. */
export function resourceChanges(from: CfnTemplate, to: CfnTemplate): ResourceChange[] {
  const diff = fullDiff(from, to);
  const changes: ResourceChange[] = [];
  diff.resources.forEachDifference((logicalId, d) => {
    if (!d.isDifferent) return;
    const type = d.newResourceType ?? d.oldResourceType ?? 'unknown';
    const stateful = STATEFUL_TYPES.has(type);
    const path = (to.Resources?.[logicalId] ?? from.Resources?.[logicalId])?.Metadata?.['aws:cdk:path'];
    changes.push({
      logicalId,
      type,
      ...(typeof path === 'string' ? { path } : {}),
      impact: d.changeImpact,
      properties: Object.entries(d.propertyUpdates).map(([name, p]) => ({
        name,
        impact: p.changeImpact ?? ResourceImpact.WILL_UPDATE,
        from: p.oldValue,
        to: p.newValue,
      })),
      stateful,
      unsafe: stateful && UNSAFE.has(d.changeImpact),
    });
  });
  return changes;
}
