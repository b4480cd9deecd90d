// @ts-check
/*
 * Custom resource that sets an Aurora DSQL cluster's resource policy (PutClusterPolicy) and reads
 * it back: the deploy fails unless the policy in force is the one rendered. It exists because the
 * cluster's own PolicyDocument cannot name the VPC endpoint made from the cluster's connection
 * service (a circular dependency). A delete leaves the policy: the cluster is retained with the
 * stack's data, and stays closed to every other path.
 */

/**
 * @typedef {{ put(identifier: string, policy: string): Promise<void>, get(identifier: string): Promise<string | undefined> }} PolicyApi
 */

/** The same policy, whatever the whitespace and key order the service answers with. */
function canonical(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(/** @type {Record<string, unknown>} */ (value)[k])]),
    );
  return value;
}

/** @param {PolicyApi} api */
function makeOnEvent(api) {
  /** @param {any} event */
  return async function onEvent(event) {
    const { Identifier: identifier, Policy: policy } = event.ResourceProperties;
    if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
    await api.put(identifier, policy);
    const inForce = await api.get(identifier);
    const want = JSON.stringify(canonical(JSON.parse(policy)));
    if (inForce === undefined || JSON.stringify(canonical(JSON.parse(inForce))) !== want)
      throw new Error(
        `the resource policy of DSQL cluster ${identifier} reads back ${inForce === undefined ? 'as none' : `as ${inForce}`} after it was set: ` +
          'the cluster may be open to connections from outside the environment; deploy again, or set it with aws dsql put-cluster-policy',
      );
    return { PhysicalResourceId: identifier };
  };
}

/** @type {PolicyApi} */
const dsqlApi = {
  // The Node.js Lambda runtime ships the AWS SDK v3.
  async put(identifier, policy) {
    const sdk = require('@aws-sdk/client-dsql');
    await new sdk.DSQLClient({}).send(new sdk.PutClusterPolicyCommand({ identifier, policy }));
  },
  async get(identifier) {
    const sdk = require('@aws-sdk/client-dsql');
    try {
      return (await new sdk.DSQLClient({}).send(new sdk.GetClusterPolicyCommand({ identifier }))).policy;
    } catch (e) {
      if (/** @type {Error} */ (e).name === 'ResourceNotFoundException') return undefined;
      throw e;
    }
  },
};

exports.onEvent = makeOnEvent(dsqlApi);
exports.makeOnEvent = makeOnEvent;
