// @ts-check
/*
 * Custom resource that runs the one-shot schema task on deploy and waits for it, for the
 * CDK provider framework (onEvent starts the task, isComplete polls it). What the history
 * keeps for life (store, shard count) is checked before, by ../history-store-guard.
 */

/** @param {(op: 'runTask' | 'describeTasks', input: any) => Promise<any>} call */
function makeHandlers(call) {
  return {
    /** @param {any} event */
    async onEvent(event) {
      const p = event.ResourceProperties;
      if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
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
      // An update keeps the id it was created with (earlier versions named it after the shard count).
      return { PhysicalResourceId: event.PhysicalResourceId || 'temporal-schema', Data: { TaskArn: task.taskArn } };
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
