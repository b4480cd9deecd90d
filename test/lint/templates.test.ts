import { lintSuite } from '../support/lint';

lintSuite();
