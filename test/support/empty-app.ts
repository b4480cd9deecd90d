// The baseline for synth timing: the same runner and CLI, an app with one empty stack.
import { App, Stack } from 'aws-cdk-lib';

const app = new App();
new Stack(app, 'Empty');
