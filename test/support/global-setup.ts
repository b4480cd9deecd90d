import { buildSynthCache } from './synth-cache';
import { CACHED_VARIANTS } from './synth';

/** Jest's globalSetup: the run's synth cache, whose directory the workers inherit. */
export default async function globalSetup(): Promise<void> {
  process.env.SYNTH_CACHE_DIR = await buildSynthCache(CACHED_VARIANTS);
}
