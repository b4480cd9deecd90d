import type { IIoHost, IoMessage, IoRequest, ICloudAssemblySource, DeployResult, DeployOptions, IBaseCredentialsProvider } from '@aws-cdk/toolkit-lib';
import { AWS_TIMEOUTS, requestHandlerSettings } from '../commands/aws/deadline';
import { scenarioApp } from '../assembly/scenario-app';
import { type CommandIO, CommandFailure, EXIT_FAILED } from '../commands/shared/cli';
import type { Target } from './campaign-run';

/*
 * A campaign's deploy through the CDK's programmatic toolkit (@aws-cdk/toolkit-lib): the app built
 * in process from the step's catalog (a followed proposal is not in config), every stack deployed,
 * the Hibernated parameter and any other kept as deployed, the toolkit's progress shown as the
 * CLI shows it. Unattended: every question the toolkit asks gets its default answer.
 */

/** What a campaign needs of the toolkit: a Toolkit, or a test's stand-in answering as one. */
export interface DeployToolkit {
  fromAssemblyBuilder(
    builder: (props: { outdir?: string; context?: Record<string, unknown> }) => Promise<unknown>,
    props?: { resolveDefaultEnvironment?: boolean; outdir?: string; lookups?: boolean; disposeOutdir?: boolean },
  ): Promise<ICloudAssemblySource>;
  deploy(cx: ICloudAssemblySource, options?: DeployOptions): Promise<DeployResult>;
}

/** The toolkit's messages as lines: progress on the status line, warnings and errors as notes (errors kept in `errors` too), debug dropped. */
export function campaignIoHost(io: CommandIO, errors: string[] = []): IIoHost {
  return {
    async notify(msg: IoMessage<unknown>): Promise<void> {
      const text = msg.message.replace(/\s+$/, '');
      if (!text) return;
      if (msg.level === 'error') errors.push(text);
      if (msg.level === 'error' || msg.level === 'warn') io.note(`${msg.level === 'error' ? 'error' : 'warning'}: ${text}`);
      else if (msg.level === 'info' || msg.level === 'result') io.status.update(text.split('\n').at(-1)!);
    },
    async requestResponse<T>(msg: IoRequest<unknown, T>): Promise<T> {
      return msg.defaultResponse;
    },
  };
}

/**
 * A failed deploy in one line: the toolkit's own error, then the last error it reported if that
 * says more (a failed asset publish names the asset, and only the message before it names the cause).
 */
export function deployFailure(e: unknown, errors: readonly string[]): string {
  const line = (text: string) =>
    text
      .replace(/❌\s*/g, '')
      .replace(/\s*\n\s*/g, ' ')
      .trim();
  const said = line(e instanceof Error ? e.message : String(e));
  const cause = errors.length ? line(errors[errors.length - 1]) : '';
  return cause && !said.includes(cause) ? `${said}: ${cause}` : said;
}

/**
 * The campaign's Toolkit, its messages through `io`, a failed deploy in one line. The toolkit's
 * SDK clients take an endpoint only from the SDK's own environment, so a campaign run against an
 * emulator (--endpoint-url) deploys there too, never to the account its credentials reach.
 */
export async function campaignToolkit(io: CommandIO, endpointUrl?: string): Promise<DeployToolkit> {
  if (endpointUrl) process.env.AWS_ENDPOINT_URL = endpointUrl;
  const { Toolkit, BaseCredentials } = await import('@aws-cdk/toolkit-lib');
  const errors: string[] = [];
  const toolkit = new Toolkit({
    ioHost: campaignIoHost(io, errors),
    color: false,
    sdkConfig: { baseCredentials: boundedAttempts(BaseCredentials.awsCliCompatible()) },
  });
  return {
    fromAssemblyBuilder: (builder, props) => toolkit.fromAssemblyBuilder(builder as never, props),
    deploy: (cx, options) =>
      toolkit.deploy(cx, options).catch((e: unknown) => {
        throw new CommandFailure(deployFailure(e, errors), EXIT_FAILED);
      }),
  };
}

/**
 * The toolkit's credentials as the CLI finds them, its SDK clients' attempts ending by a deadline
 * as the commands' do: by default an attempt that gets no answer only warns after 300 s. It hands its
 * clients' settings to the credentials first and keeps the same object for its clients.
 */
export function boundedAttempts(base: IBaseCredentialsProvider): IBaseCredentialsProvider {
  return {
    sdkBaseConfig: (ioHost, clientConfig) => {
      clientConfig.requestHandler = { ...clientConfig.requestHandler, ...requestHandlerSettings(AWS_TIMEOUTS.deployAttemptSeconds) };
      return base.sdkBaseConfig(ioHost, clientConfig);
    },
  };
}

/**
 * The target's app as the toolkit's assembly source: built in process into `outdir` (kept: the
 * step's record of what it deployed), as `cdk synth -c scenario=<name>` builds it. Hermetic as
 * synth is: no context lookups, and no account lookup (STS) for a default environment.
 */
export function scenarioAssembly(toolkit: DeployToolkit, to: Target, context: Record<string, string>, outdir: string): Promise<ICloudAssemblySource> {
  return toolkit.fromAssemblyBuilder(
    async (props) => {
      const { app } = scenarioApp({ ...context, scenario: to.name }, to.catalog, props.outdir);
      return app.synth();
    },
    { resolveDefaultEnvironment: false, lookups: false, outdir, disposeOutdir: false },
  );
}

/**
 * Deploys every stack of the target's scenario; returns what it did, in a line. As `cdk deploy`
 * does, through the bootstrap's roles: the assets go up as the file-publishing role, and
 * CloudFormation is driven as the deploy role (which passes the execution role); no lookups.
 * @iamActions sts:AssumeRole arn:aws:iam::${Account}:role/cdk-hnb659fds-deploy-role-${Account}-${Region}
 * @iamActions sts:AssumeRole arn:aws:iam::${Account}:role/cdk-hnb659fds-file-publishing-role-${Account}-${Region}
 */
export async function deployScenario(toolkit: DeployToolkit, to: Target, context: Record<string, string>, outdir: string): Promise<string> {
  const { StackParameters, StackSelectionStrategy } = await import('@aws-cdk/toolkit-lib');
  const cx = await scenarioAssembly(toolkit, to, context, outdir);
  const result = await toolkit.deploy(cx, {
    stacks: { strategy: StackSelectionStrategy.ALL_STACKS },
    // A hibernated environment stays hibernated through a deploy (the ready stage wakes it).
    parameters: StackParameters.onlyExisting(),
  });
  return `deployed ${result.stacks.map((s) => s.stackName).join(', ')} with ${to.name}`;
}
