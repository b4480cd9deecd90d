import type { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import type { DSQLClient } from '@aws-sdk/client-dsql';
import type { ECSClient } from '@aws-sdk/client-ecs';
import type { TemporalScenario } from '../../../../config';
import type { AwsClients, AwsTarget } from '../../../commands/aws/clients';
import { TEMPORAL_OUTPUTS as O } from '../../contract/temporal-stack-outputs';
import { requiredOutputs, stackOutputs } from '../../../commands/aws/read-stack-outputs';

/** The SDK clients the bench commands call. */
export interface BenchClients {
  readonly ecs: ECSClient;
  readonly autoScaling: AutoScalingClient;
  readonly dsql: DSQLClient;
  readonly logs: CloudWatchLogsClient;
}

export const benchClients = (aws: AwsClients, target: AwsTarget): BenchClients => ({
  ecs: aws.ecs(target),
  autoScaling: aws.autoScaling(target),
  dsql: aws.dsql(target),
  logs: aws.logs(target),
});

/** What the bench commands act on, read from the deployed stack's outputs. */
export interface BenchTargets {
  readonly cluster: string;
  readonly workerService: string;
  readonly asgName: string;
  readonly capacityProvider: string;
  readonly generatorTaskDefinition: string;
  readonly securityGroup: string;
  readonly subnets: readonly string[];
  /** The store probe: its task definition and the servers' security group it runs in (older stacks have none). */
  readonly probe?: { readonly taskDefinition: string; readonly securityGroup: string };
  /** The DSQL store's cluster (none for the aurora-postgresql store). */
  readonly dsqlClusterId?: string;
  /** The preset the stack was last deployed with. */
  readonly deployedScenario: string;
}

/** The outputs the bench commands need, by target field. */
const OUTPUTS = {
  cluster: O.clusterName,
  workerService: O.benchmarkWorkerService,
  asgName: O.benchmarkAsgName,
  capacityProvider: O.benchmarkCapacityProvider,
  generatorTaskDefinition: O.generatorTaskDefinition,
  securityGroup: O.benchmarkSecurityGroupId,
  subnets: O.privateSubnets,
  deployedScenario: O.scenario,
} as const;

/** Every output the bench commands read from a stack with this store (the probe's two are optional: older stacks lack them). */
export function benchOutputKeys(engine: TemporalScenario['preset']['store']['engine']): { required: string[]; optional: string[] } {
  return {
    required: [...Object.values<string>(OUTPUTS), ...(engine === 'dsql' ? [O.dsqlClusterId] : [])],
    optional: [O.storeProbeTaskDefinition, O.serverSecurityGroupId],
  };
}

export async function benchTargets(cfn: CloudFormationClient, scenario: TemporalScenario): Promise<BenchTargets> {
  const keys: Record<string, string> = scenario.preset.store.engine === 'dsql' ? { ...OUTPUTS, dsqlClusterId: O.dsqlClusterId } : OUTPUTS;
  const outputs = await stackOutputs(cfn, scenario.stackName);
  const o: Record<string, string> = await requiredOutputs(cfn, scenario.stackName, keys, 'deployed with an older version? redeploy it', outputs);
  const [probeTask, probeGroup] = [outputs[O.storeProbeTaskDefinition], outputs[O.serverSecurityGroupId]];
  const probe = probeTask && probeGroup ? { taskDefinition: probeTask, securityGroup: probeGroup } : undefined;
  return { ...(o as Record<keyof typeof OUTPUTS, string>), dsqlClusterId: o.dsqlClusterId, subnets: o.subnets.split(','), ...(probe ? { probe } : {}) };
}
