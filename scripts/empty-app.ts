// The baseline of npm run bench:tooling: the same runner, CLI and cdk.json, and an app whose one
// stack holds one no-op resource (CloudFormation refuses a template without resources).
import { App, CfnWaitConditionHandle, Stack } from 'aws-cdk-lib/core';

const app = new App();
new CfnWaitConditionHandle(new Stack(app, 'Empty'), 'Nothing');
