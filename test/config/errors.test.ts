import { ConfigError } from '../../config/errors';

/* A ConfigError is one class however many copies of config/ a process loaded. */

test('a ConfigError from a second copy of config/ is a ConfigError; any other error is not', () => {
  let Other: typeof ConfigError | undefined;
  jest.isolateModules(() => {
    ({ ConfigError: Other } = require('../../config/errors') as typeof import('../../config/errors'));
  });
  expect(Other).toBeDefined();
  expect(Other).not.toBe(ConfigError);
  expect(new Other!('from the other copy')).toBeInstanceOf(ConfigError);
  expect(new ConfigError('here')).toBeInstanceOf(Other!);
  expect(new Error('plain')).not.toBeInstanceOf(ConfigError);
  expect(Object.assign(new TypeError('renamed'), { name: 'ConfigErrors' })).not.toBeInstanceOf(ConfigError);
  expect({ name: 'ConfigError', message: 'not an Error' }).not.toBeInstanceOf(ConfigError);
});
