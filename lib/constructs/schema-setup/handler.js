// @ts-check
/*
 * Custom resource that runs the one-shot schema task on deploy and waits for it, for the
 * CDK provider framework (onEvent starts the task, isComplete polls it). It also refuses
 * any change of numHistoryShards: the shard count the cluster was created with is kept in
 * the physical resource ID, so an update that asks for another count fails with a clear
 * message, and the rollback that follows (which asks for the old count) succeeds.
 */
const PREFIX = 'temporal-schema-shards-';

/** @param {(op: 'runTask' | 'describeTasks', input: any) => Promise<any>} call */
function makeHandlers(call) {
  return {
    /** @param {any} event */
    async onEvent(event) {
      const p = event.ResourceProperties;
      const shards = String(p.NumHistoryShards);
      if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
      if (event.RequestType === 'Update') {
        const created = String(event.PhysicalResourceId).slice(PREFIX.length);
        if (created !== shards)
          throw new Error(
            `numHistoryShards cannot change: this Temporal cluster was created with ${created} history shards ` +
              `and keeps them for life (asked for ${shards}). Set persistence.numHistoryShards back to ${created}, ` +
              'or create a new environment (-c envName=...) for another shard count.',
          );
      }
      const action = event.RequestType === 'Create' ? 'create' : 'update';
      const out = await call('runTask', {
        cluster: p.Cluster,
        taskDefinition: p.TaskDefinition,
        capacityProviderStrategy: [{ capacityProvider: p.CapacityProvider, weight: 1 }],
        networkConfiguration: { awsvpcConfiguration: { subnets: p.Subnets, securityGroups: p.SecurityGroups, assignPublicIp: 'DISABLED' } },
        overrides: { containerOverrides: [{ name: p.Container, environment: [{ name: 'SCHEMA_ACTION', value: action }] }] },
        startedBy: 'cfn-schema-setup',
      });
      const task = out.tasks && out.tasks[0];
      if (!task) throw new Error(`the schema task did not start: ${JSON.stringify(out.failures)}`);
      return { PhysicalResourceId: PREFIX + shards, Data: { TaskArn: task.taskArn } };
    },

    /** @param {any} event */
    async isComplete(event) {
      if (event.RequestType === 'Delete') return { IsComplete: true };
      const p = event.ResourceProperties;
      const arn = event.Data.TaskArn;
      const out = await call('describeTasks', { cluster: p.Cluster, tasks: [arn] });
      const task = out.tasks && out.tasks[0];
      if (!task) throw new Error(`schema task ${arn} not found`);
      if (task.lastStatus !== 'STOPPED') return { IsComplete: false };
      const container = (task.containers || []).find((/** @type {any} */ c) => c.name === p.Container);
      if (!container || container.exitCode !== 0)
        throw new Error(`schema task ${arn} failed (exit ${container && container.exitCode}): ${task.stoppedReason}; see its log stream`);
      return { IsComplete: true };
    },
  };
}

/** @type {(op: 'runTask' | 'describeTasks', input: any) => Promise<any>} */
async function ecs(op, input) {
  // The Node.js Lambda runtime ships the AWS SDK v3.
  const sdk = require('@aws-sdk/client-ecs');
  const client = new sdk.ECSClient({});
  return client.send(op === 'runTask' ? new sdk.RunTaskCommand(input) : new sdk.DescribeTasksCommand(input));
}

const handlers = makeHandlers(ecs);
exports.onEvent = handlers.onEvent;
exports.isComplete = handlers.isComplete;
exports.makeHandlers = makeHandlers;
