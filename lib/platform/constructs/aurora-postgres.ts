import { Duration } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as rds from 'aws-cdk-lib/aws-rds';
import { durationSeconds } from '../../../config/fields';
import type { Construct } from 'constructs';
import { acknowledgeNag } from './lint-acknowledgements';

/*
 * What every Aurora PostgreSQL cluster of this project shares, whichever stack it is in (the
 * FOLIO pair, Temporal's history store): the engine at a pinned version, TLS-only parameters
 * and the Enhanced Monitoring role. The constructs keep the ids they are given, so moving a
 * cluster's pieces here changes no logical id.
 */

/** Aurora PostgreSQL at `version` (major.minor), pinned: never resolved at synth. */
export function auroraPostgresEngine(version: string): rds.IClusterEngine {
  return rds.DatabaseClusterEngine.auroraPostgres({ version: rds.AuroraPostgresEngineVersion.of(version, version.split('.')[0]) });
}

/** Cluster parameters that refuse clients that do not negotiate TLS, and any `extra` ones. */
export function tlsOnlyParameters(scope: Construct, engine: rds.IClusterEngine, description: string, extra: Record<string, string> = {}): rds.ParameterGroup {
  return new rds.ParameterGroup(scope, 'ClusterParameters', { engine, description, parameters: { 'rds.force_ssl': '1', ...extra } });
}

/** The role RDS Enhanced Monitoring writes OS metrics with. */
export function enhancedMonitoringRole(scope: Construct): iam.Role {
  const role = new iam.Role(scope, 'MonitoringRole', {
    assumedBy: new iam.ServicePrincipal('monitoring.rds.amazonaws.com'),
    managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonRDSEnhancedMonitoringRole')],
  });
  acknowledgeNag(
    role,
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonRDSEnhancedMonitoringRole]',
    'The AWS-managed policy RDS documents for Enhanced Monitoring; it only writes to the RDSOSMetrics log group.',
  );
  return role;
}

/** A Serverless v2 range's pause after idling, for CloudFormation: only where min is 0 ACU (config requires it there, and refuses it elsewhere). */
export function autoPauseDuration(range: { readonly min: number; readonly autoPause?: string }): Duration | undefined {
  return range.min === 0 && range.autoPause !== undefined ? Duration.seconds(durationSeconds(range.autoPause)) : undefined;
}
