import type { DeployOptions, DeployResult, ICloudAssemblySource, IoMessage } from '@aws-cdk/toolkit-lib';
import { BaseCredentials, Toolkit } from '@aws-cdk/toolkit-lib';
import { CATALOG } from '../../../config';
import { AWS_TIMEOUTS } from '../../../lib/commands/aws/deadline';
import { boundedAttempts, campaignIoHost, deployFailure, deployScenario, type DeployToolkit, scenarioAssembly } from '../../../lib/campaign/toolkit-deploy';
import { recordingIO } from '../../support/command-io';
import { tempDir } from '../../support/temp-dir';

/*
 * The campaign's deploy through @aws-cdk/toolkit-lib: the real Toolkit builds the scenario's
 * assembly in process (no credentials, no network), and a stand-in answers the deploy as the
 * toolkit does, with what it was asked recorded. The toolkit's deploy against moto's server is
 * test/integration/bin/campaign-deploy.test.ts.
 */

test("the real toolkit synthesizes the step's scenario in process: both stacks, the scenario's own templates, no account lookup", async () => {
  const io = recordingIO();
  const toolkit = new Toolkit({ ioHost: campaignIoHost(io), color: false, emojis: false });
  const outdir = tempDir('toolkit-');
  const cx = await scenarioAssembly(toolkit, { name: 'test12', catalog: CATALOG }, {}, outdir);
  const assembly = await toolkit.synth(cx);
  const stacks = assembly.cloudAssembly.stacks.map((s) => s.stackName).sort();
  expect(stacks).toEqual(['FolioHybridAurora', 'FolioHybridAuroraObservability']);
  const data = assembly.cloudAssembly.getStackByName('FolioHybridAurora');
  expect(data.template.Outputs.Phase.Value).toBe('test12');
  expect(data.environment.region).toBe('us-east-1');
  await assembly.dispose();
  // What the toolkit said while it worked came through the host as lines, none of them errors.
  expect(io.notes.filter((n) => n.startsWith('error:'))).toEqual([]);
}, 60_000);

test('a deploy selects every stack and keeps the deployed parameters (Hibernated stays as it is), and says what it deployed', async () => {
  const asked: DeployOptions[] = [];
  const built: string[] = [];
  const stand: DeployToolkit = {
    async fromAssemblyBuilder(builder, props) {
      expect(props).toMatchObject({ resolveDefaultEnvironment: false, lookups: false, disposeOutdir: false });
      const assembly = (await builder({ outdir: props!.outdir })) as { stacks: { stackName: string }[] };
      built.push(...assembly.stacks.map((s) => s.stackName));
      return {} as ICloudAssemblySource;
    },
    async deploy(_cx, options) {
      asked.push(options!);
      // As the toolkit answers a deploy: each stack with its outputs.
      return { stacks: built.map((stackName) => ({ stackName, outputs: {} })) } as unknown as DeployResult;
    },
  };
  const line = await deployScenario(stand, { name: 'test11', catalog: CATALOG }, {}, tempDir('toolkit-'));
  expect(line).toBe('deployed FolioHybridAurora, FolioHybridAuroraObservability with test11');
  expect(asked).toHaveLength(1);
  expect(asked[0].stacks).toEqual({ strategy: 'all-stacks' });
  expect(asked[0].parameters).toMatchObject({ keepExistingParameters: true, parameters: new Map() });
}, 60_000);

test("the toolkit's messages as the campaign shows them: progress on the status line, warnings and errors as notes, debug dropped; every question answered with its default", async () => {
  const io = recordingIO();
  const host = campaignIoHost(io);
  const msg = (level: IoMessage<unknown>['level'], message: string) =>
    ({ level, message, time: new Date(), action: 'deploy', code: 'CDK_TOOLKIT_I0000', data: undefined }) as IoMessage<unknown>;
  await host.notify(msg('info', 'FolioHybridAurora: deploying... [1/2]'));
  await host.notify(msg('warn', 'current credentials could not be used to assume the lookup role'));
  await host.notify(msg('error', 'FolioHybridAurora failed: Resource is not in the state stackUpdateComplete'));
  await host.notify(msg('debug', 'Reading cached notices'));
  expect(io.statuses).toEqual(['FolioHybridAurora: deploying... [1/2]']);
  expect(io.notes).toEqual([
    'warning: current credentials could not be used to assume the lookup role',
    'error: FolioHybridAurora failed: Resource is not in the state stackUpdateComplete',
  ]);
  const answer = await host.requestResponse({ ...msg('info', 'Do you wish to deploy these changes (y/n)?'), defaultResponse: true } as never);
  expect(answer).toBe(true);
});

test("a failed deploy in one line: the toolkit's error, then the cause it reported before it, each once", () => {
  // As the toolkit reported a publish to a bucket that is gone (campaign-deploy.test.ts): the error names the asset, the message before it the cause.
  const publish = new Error('Failed to publish asset TemporalDsql Template (current_account-eu-west-1-2cd00073)');
  const noBucket = "TemporalDsql: fail: No bucket named 'cdk-hnb659fds-assets-123456789012-eu-west-1'. Is account 123456789012 bootstrapped?";
  expect(deployFailure(publish, [noBucket, noBucket])).toBe(`Failed to publish asset TemporalDsql Template (current_account-eu-west-1-2cd00073): ${noBucket}`);
  // A stack that failed: the toolkit's error says it all, the message before it says the same.
  const failed = '❌  TemporalDsql failed: ValidationError: Template error: instance of Fn::GetAtt references undefined resource VisibilityDomainF99AA73A';
  expect(deployFailure(new Error(failed), [failed])).toBe(
    'TemporalDsql failed: ValidationError: Template error: instance of Fn::GetAtt references undefined resource VisibilityDomainF99AA73A',
  );
  // Nothing reported before it, and a message of several lines: one line.
  expect(deployFailure(new Error('TemporalDsql failed:\n  Resource is not in the state stackUpdateComplete\n'), [])).toBe(
    'TemporalDsql failed: Resource is not in the state stackUpdateComplete',
  );
  expect(deployFailure('not an Error', [])).toBe('not an Error');
});

test('the host keeps every error the toolkit reports, for the failure line', async () => {
  const errors: string[] = [];
  const host = campaignIoHost(recordingIO(), errors);
  const msg = (level: IoMessage<unknown>['level'], message: string) =>
    ({ level, message, time: new Date(), action: 'deploy', code: 'CDK_TOOLKIT_I0000', data: undefined }) as IoMessage<unknown>;
  await host.notify(msg('info', 'TemporalDsql: deploying... [1/2]'));
  await host.notify(msg('error', 'TemporalDsql: fail: No bucket named x\n'));
  await host.notify(msg('warn', 'a warning'));
  expect(errors).toEqual(['TemporalDsql: fail: No bucket named x']);
});

test("the toolkit's SDK clients end an attempt as the commands' do: the real Toolkit hands them the bounded settings", async () => {
  const base = BaseCredentials.awsCliCompatible();
  const bounded = new Toolkit({ ioHost: campaignIoHost(recordingIO()), sdkConfig: { baseCredentials: boundedAttempts(base) } });
  const plain = new Toolkit({ ioHost: campaignIoHost(recordingIO()), sdkConfig: { baseCredentials: base } });
  // The provider the toolkit builds for its clients (internal, read here so that an upgrade that stops passing the settings on fails).
  const handler = async (t: Toolkit) =>
    (await (t as unknown as { sdkProvider(a: string): Promise<{ requestHandler: object }> }).sdkProvider('deploy')).requestHandler;
  expect(await handler(bounded)).toMatchObject({
    connectionTimeout: AWS_TIMEOUTS.connectSeconds * 1000,
    requestTimeout: AWS_TIMEOUTS.deployAttemptSeconds * 1000,
    throwOnRequestTimeout: true,
  });
  expect(await handler(plain)).toMatchObject({ requestTimeout: 300_000 });
  expect(await handler(plain)).not.toHaveProperty('throwOnRequestTimeout');
});
