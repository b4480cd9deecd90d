import { join } from 'node:path';
import { operatorPolicies, policyPage } from '../../lib/commands/operator-policy/run-operator-policy';
import { policyProblems } from '../../lib/commands/operator-policy/policy-document';
import { expectDocFile } from '../support/docs';
import { actionsOutsidePolicy } from '../support/operator-audit';

/*
 * docs/operator-policy/ is what `npm run operator-policy -- --write docs/operator-policy` generates from the code's AWS
 * calls: a call a command gains changes its policy, and this test fails until the page is
 * regenerated. After an intended change: UPDATE_DOCS=1 npx jest test/docs
 */

const DIR = join(__dirname, '../../docs/operator-policy');
let policies: Awaited<ReturnType<typeof operatorPolicies>>;

beforeAll(async () => {
  policies = await operatorPolicies();
}, 60_000);

test('each policy file is what the code calls today, and passes the policy linter', async () => {
  const written = policies.filter((p) => p.document);
  expect(written.length).toBeGreaterThan(8);
  for (const p of written) {
    expectDocFile(join(DIR, `${p.command}.json`), `${JSON.stringify(p.document, null, 2)}\n`);
    expect({ command: p.command, problems: await policyProblems(p.document!) }).toEqual({ command: p.command, problems: [] });
  }
  expectDocFile(join(DIR, 'README.md'), policyPage(policies));
});

test("the commands that act on an environment ask for what they do and no more: hibernate's writes, bench's task, cost's prices", () => {
  const actionsOf = (command: string) => new Set(policies.find((p) => p.command === command)!.calls.map((c) => c.action));
  expect([...actionsOf('environment')]).toEqual(expect.arrayContaining(['ecs:UpdateService', 'autoscaling:UpdateAutoScalingGroup', 'rds:StopDBCluster', 'cloudformation:UpdateStack']));
  expect([...actionsOf('bench')]).toEqual(expect.arrayContaining(['ecs:RunTask', 'ecs:StopTask', 'logs:GetLogEvents']));
  expect(actionsOf('bench').has('rds:StopDBCluster')).toBe(false);
  expect([...actionsOf('cost')]).toEqual(['pricing:GetProducts']);
  expect([...actionsOf('report')].every((a) => /:(Get|Describe|List|Query)/.test(a))).toBe(true);
  // plan reads the deployed stack only when asked to (--check-deployed).
  expect([...actionsOf('plan')]).toEqual(['cloudformation:DescribeStacks']);
  expect(actionsOf('scenarios').size).toBe(0);
});

test("the audit of a command's calls against its policy names each call the policy does not grant", () => {
  expect(actionsOutsidePolicy('bench', ['ecs:RunTask', 'ecs:StopTask', 'ecs:DeleteCluster', 'ecs:DeleteCluster'])).toEqual(['bench: ecs:DeleteCluster']);
  expect(actionsOutsidePolicy('scenarios', ['cloudformation:DescribeStacks'])).toEqual(['scenarios: cloudformation:DescribeStacks']);
});
