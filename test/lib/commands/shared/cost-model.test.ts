import { ConfigError, resolveScenario, type TemporalScenario } from '../../../../config';
import { loadPrices, type PriceFile, priceFileSchema } from '../../../../config/prices';
import { costOf } from '../../../../lib/families';
import { temporalCost } from '../../../../lib/temporal/commands/cost/temporal-cost';

/* What every family's cost lines stand on: the price files, and the region they are for. */

const temporal = resolveScenario({ scenario: 'temporal-150wps' }) as TemporalScenario;
const eu = loadPrices('eu-west-1');
const us = loadPrices('us-east-1');

describe('prices are data', () => {
  test('every price file is valid and names its region', () => {
    for (const f of [eu, us]) expect(priceFileSchema.parse(f)).toEqual(f);
  });

  test('a price the model needs and the file lacks is one line naming the key and the file', () => {
    const without: PriceFile = { ...eu, prices: Object.fromEntries(Object.entries(eu.prices).filter(([k]) => k !== 'ec2:m7g.2xlarge')) };
    expect(() => temporalCost(temporal, without)).toThrow(ConfigError);
    expect(() => temporalCost(temporal, without)).toThrow(
      /^no price "ec2:m7g.2xlarge" in config\/prices\/eu-west-1.json \(did you mean "ec2:m7g.xlarge"\?\); add it, or run `npm run cost -- --refresh-prices`; it has: /,
    );
  });

  test('a region with no price file is one line naming the priced regions', () => {
    expect(() => loadPrices('ap-south-2')).toThrow(
      'no prices for region ap-south-2: config/prices/ap-south-2.json does not exist; priced regions: eu-west-1, us-east-1',
    );
  });

  test('prices of the wrong region are refused', () => {
    expect(() => costOf(temporal, us)).toThrow('prices are for us-east-1, the scenario deploys to eu-west-1');
  });
});
