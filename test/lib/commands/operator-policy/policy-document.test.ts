import { policyFor, policyProblems, type PolicyDocument } from '../../../../lib/commands/operator-policy/policy-document';

const at = (action: string, resource?: string) => ({ action, where: 'lib/x.ts:1', ...(resource ? { resource } : {}) });

test("an action on the resource types it takes, in each region and the caller's account; one that takes none on *", async () => {
  const doc = await policyFor([at('ecs:UpdateService'), at('cloudwatch:GetMetricData')], ['eu-west-1', 'us-east-1']);
  expect(doc.Statement).toEqual([
    { Sid: 'Cloudwatch', Effect: 'Allow', Action: ['cloudwatch:GetMetricData'], Resource: ['*'] },
    {
      Sid: 'Ecs',
      Effect: 'Allow',
      Action: ['ecs:UpdateService'],
      Resource: ['arn:aws:ecs:eu-west-1:${aws:PrincipalAccount}:service/*/*', 'arn:aws:ecs:us-east-1:${aws:PrincipalAccount}:service/*/*'],
    },
  ]);
  expect(await policyProblems(doc)).toEqual([]);
});

test('a task run passes its roles to ECS, and only to ECS', async () => {
  const doc = await policyFor([at('ecs:RunTask')], ['eu-west-1']);
  expect(doc.Statement).toEqual([
    { Sid: 'Ecs', Effect: 'Allow', Action: ['ecs:RunTask'], Resource: ['arn:aws:ecs:eu-west-1:${aws:PrincipalAccount}:task-definition/*:*'] },
    {
      Sid: 'Iam',
      Effect: 'Allow',
      Action: ['iam:PassRole'],
      Resource: ['arn:aws:iam::${aws:PrincipalAccount}:role/*'],
      Condition: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } },
    },
  ]);
  expect(await policyProblems(doc)).toEqual([]);
});

test("a tag's resource is filled in for each region and the caller's account", async () => {
  const doc = await policyFor([at('sts:AssumeRole', 'arn:aws:iam::${Account}:role/deploy-${Account}-${Region}')], ['eu-west-1']);
  expect(doc.Statement[0].Resource).toEqual(['arn:aws:iam::${aws:PrincipalAccount}:role/deploy-${aws:PrincipalAccount}-eu-west-1']);
});

test('an action AWS does not know is refused', async () => {
  await expect(policyFor([at('ecs:ListTasksFaster')], ['eu-west-1'])).rejects.toThrow(/^ecs:ListTasksFaster is not an IAM action/);
});

test('the linter names each wrong grant: an unknown action, * where a type is taken, a resource of another type, a foreign condition key', async () => {
  const doc: PolicyDocument = {
    Version: '2012-10-17',
    Statement: [
      { Sid: 'A', Effect: 'Allow', Action: ['ecs:UpdateServices'], Resource: ['*'] },
      { Sid: 'B', Effect: 'Allow', Action: ['rds:StopDBCluster'], Resource: ['*'] },
      { Sid: 'C', Effect: 'Allow', Action: ['ecs:StopTask'], Resource: ['arn:aws:ecs:eu-west-1:${aws:PrincipalAccount}:service/*/*'] },
      {
        Sid: 'D',
        Effect: 'Allow',
        Action: ['ecs:StopTask'],
        Resource: ['arn:aws:ecs:eu-west-1:${aws:PrincipalAccount}:task/*/*'],
        Condition: { StringEquals: { 'iam:PassedToService': 'x' } },
      },
    ],
  };
  expect(await policyProblems(doc)).toEqual([
    'A: ecs:UpdateServices is not an IAM action',
    'B: rds:StopDBCluster on * though it takes cluster',
    expect.stringMatching(/^C: ecs:StopTask does not take arn:aws:ecs:eu-west-1:\$\{aws:PrincipalAccount\}:service\/\*\/\* \(it takes .*task\//),
    'D: ecs:StopTask has no condition key iam:PassedToService',
  ]);
});
