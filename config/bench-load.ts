import { ConfigError } from './errors';

/*
 * The rules a benchmark load is held to, wherever it is written: `bench run` and `bench ladder`'s
 * options, and a campaign's bench-run and bench-ladder steps (config/campaign-schema.ts). One
 * place each, so a campaign never accepts a step its command would refuse after the deploy.
 * Each check takes the names the user wrote (`--up-to` on the command line, `upTo` in a step).
 */

/** Workflows per second a run or a ladder's step may offer. */
export const BENCH_RATE = { min: 1, max: 100_000 } as const;

/** How long one generator run (a bench run, or a ladder's step) may offer load. */
export const GENERATOR_RUN = { seconds: 86_400, why: 'the generator and the fleet bill by the hour while it runs; run again for longer' } as const;

/** A ladder's step: shorter, and the generator's start and the step's first scrape are most of it. */
export const LADDER_STEP_MIN_SECONDS = 10;

/** How a ladder's rates are named where they were written. */
export interface LadderFields {
  readonly rates: string;
  readonly from: string;
  readonly upTo: string;
}

const CLI_LADDER_FIELDS: LadderFields = { rates: '--rates', from: '--from', upTo: '--up-to' };

/** The rates to offer: the ones given (rising), or doubling from `from` up to `upTo`, at most `maxSteps`. */
export function ladderRates(
  o: { readonly rates?: readonly number[]; readonly from?: number; readonly upTo?: number; readonly maxSteps: number },
  f: LadderFields = CLI_LADDER_FIELDS,
): number[] {
  if (o.rates) {
    const falling = o.rates.findIndex((r, i) => i > 0 && r <= o.rates![i - 1]);
    if (falling > 0)
      throw new ConfigError(
        `${f.rates} ${o.rates.join(',')}: ${o.rates[falling]} does not rise above ${o.rates[falling - 1]} (valid: rising rates, e.g. 100,200,400)`,
      );
    if (o.rates.length > o.maxSteps)
      throw new ConfigError(
        `${f.rates} ${o.rates.join(',')}: ${o.rates.length} steps, more than the ladder's ${o.maxSteps} (valid: at most ${o.maxSteps} rates; observability.ladder.maxSteps)`,
      );
    return [...o.rates];
  }
  const from = o.from!;
  if (o.upTo !== undefined && o.upTo < from) throw new ConfigError(`${f.upTo} ${o.upTo} is below ${f.from} ${from} (valid: a cap at or above the first rate)`);
  const rates: number[] = [];
  for (let r = from; rates.length < o.maxSteps && (o.upTo === undefined || r <= o.upTo); r *= 2) rates.push(r);
  return rates;
}
