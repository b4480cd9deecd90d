const vm = require('node:vm');

/*
 * Jest's runtime (the `runtime` option of jest.config.js), with V8's code cache for the modules it
 * compiles. Each test file has a module registry of its own, so a worker compiles aws-cdk-lib,
 * zod and the project again for every file it runs: about 2,300 modules compiled some 46,000
 * times in a run. Given the cache data V8 produced the first time, a compile deserializes instead
 * of parsing. The data is kept in the worker's memory only, under the module's file name and
 * wrapper, and used only for the very code it was made from: V8's own check on cache data looks
 * at the source's length, not its text.
 */

/**
 * `compile` (vm.compileFunction's signature) with a code cache: the first compile of a module
 * asks V8 for cache data, later compiles of the same code under the same name and parameters
 * pass it back. Data V8 rejects is replaced by what that compile produced.
 */
function withCodeCache(compile) {
  const kept = new Map();
  const stats = { hits: 0, misses: 0, rejected: 0 };
  function compileFunction(code, params = [], options = {}) {
    const key = `${options.filename}\0${params.join(',')}`;
    const entry = kept.get(key);
    const cachedData = entry && entry.code === code ? entry.data : undefined;
    const fn = compile(code, params, cachedData ? { ...options, cachedData } : { ...options, produceCachedData: true });
    if (cachedData && !fn.cachedDataRejected) {
      stats.hits++;
      return fn;
    }
    if (cachedData) stats.rejected++;
    else stats.misses++;
    if (fn.cachedData) kept.set(key, { code, data: fn.cachedData });
    return fn;
  }
  return { compileFunction, stats };
}

// Jest's runtime calls vm.compileFunction through the module object, so it takes the wrapped one.
if (!vm.compileFunction.codeCacheStats) {
  const { compileFunction, stats } = withCodeCache(vm.compileFunction.bind(vm));
  vm.compileFunction = Object.assign(compileFunction, { codeCacheStats: stats });
}

/** Jest's own runtime: only the compile under it has changed. */
class CodeCachedRuntime extends require('jest-runtime').default {
  static withCodeCache = withCodeCache;
}

module.exports = CodeCachedRuntime;
