import { z } from 'zod';

/*
 * zod as every schema of the project uses it (imported from here: a rule of
 * .dependency-cruiser.cjs). On a schema's first parse zod compiles it into a function, which pays
 * off over thousands of parses of one schema; a command, a synth or a test file parses the
 * catalog once or a few times, and without the compile the first parse takes about half as long
 * (docs/testing.md).
 */
z.config({ jitless: true });

export { z };
