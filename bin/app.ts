#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { exitOnConfigError, resolveScenario } from '../config';
import { addScenarioStacks } from '../lib/scenario-stacks';

const app = new App();
const scenario = exitOnConfigError(() => resolveScenario(app.node.getAllContext()));
addScenarioStacks(app, scenario);
