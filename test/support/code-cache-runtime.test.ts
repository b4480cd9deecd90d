import * as vm from 'node:vm';

const { withCodeCache } = require('./code-cache-runtime') as {
  withCodeCache: (compile: typeof vm.compileFunction) => { compileFunction: typeof vm.compileFunction; stats: Record<'hits' | 'misses' | 'rejected', number> };
};

const real = () => withCodeCache(vm.compileFunction.bind(vm));

test('a module compiled again under the same name and wrapper is given the data V8 produced the first time', () => {
  const calls: vm.CompileFunctionOptions[] = [];
  const data = Buffer.from('cache');
  const { compileFunction, stats } = withCodeCache(((_code: string, _params: string[], options: vm.CompileFunctionOptions) => {
    calls.push(options);
    return Object.assign(() => 1, options.produceCachedData ? { cachedData: data } : {});
  }) as unknown as typeof vm.compileFunction);
  compileFunction('return 1', ['module'], { filename: 'a.js' });
  compileFunction('return 1', ['module'], { filename: 'a.js' });
  compileFunction('return 1', ['module', 'jest'], { filename: 'a.js' });
  compileFunction('return 1', ['module'], { filename: 'b.js' });
  expect(calls.map((o) => ({ produce: !!o.produceCachedData, given: o.cachedData === data }))).toEqual([
    { produce: true, given: false },
    { produce: false, given: true },
    { produce: true, given: false },
    { produce: true, given: false },
  ]);
  expect(stats).toEqual({ hits: 1, misses: 3, rejected: 0 });
});

test('the cached module behaves as the one compiled from its source', () => {
  const { compileFunction, stats } = real();
  const first = compileFunction('return a + 1', ['a'], { filename: 'same.js' });
  const again = compileFunction('return a + 1', ['a'], { filename: 'same.js' });
  expect([first(1), again(1), stats.hits]).toEqual([2, 2, 1]);
});

test('changed code under the same name is compiled from its own source, even where V8 would take the old data', () => {
  // V8 checks cache data against the source's length: the old data for a new source of the same
  // length is accepted and runs the old code.
  const old = vm.compileFunction('return a + 1', ['a'], { filename: 'v8.js', produceCachedData: true });
  const stale = vm.compileFunction('return a + 2', ['a'], { filename: 'v8.js', cachedData: old.cachedData });
  expect({ result: stale(1), rejected: stale.cachedDataRejected }).toEqual({ result: 2, rejected: false });

  const { compileFunction, stats } = real();
  compileFunction('return a + 1', ['a'], { filename: 'edited.js' });
  const edited = compileFunction('return a + 2', ['a'], { filename: 'edited.js' });
  expect(edited(1)).toBe(3);
  // And the edit's own data serves it from then on.
  expect(compileFunction('return a + 2', ['a'], { filename: 'edited.js' })(1)).toBe(3);
  expect(stats).toEqual({ hits: 1, misses: 2, rejected: 0 });
});

test('data V8 rejects is replaced by what that compile produced', () => {
  let n = 0;
  const { compileFunction, stats } = withCodeCache(((_code: string, _params: string[], options: vm.CompileFunctionOptions) =>
    Object.assign(() => 1, {
      cachedData: Buffer.from(`data ${++n}`),
      cachedDataRejected: !!options.cachedData && n === 2,
    })) as unknown as typeof vm.compileFunction);
  for (let i = 0; i < 3; i++) compileFunction('x', [], { filename: 'r.js' });
  expect(stats).toEqual({ hits: 1, misses: 1, rejected: 1 });
});

test('the unit suite runs on it: jest.config.js names it, and this worker compiled this file through it', () => {
  expect(require('../../jest.config.js').runtime).toBe('<rootDir>/test/support/code-cache-runtime.js');
  expect(Object.getPrototypeOf(require('./code-cache-runtime'))).toBe(require('jest-runtime').default);
  expect((vm.compileFunction as unknown as { codeCacheStats?: { misses: number } }).codeCacheStats?.misses).toBeGreaterThan(0);
});
