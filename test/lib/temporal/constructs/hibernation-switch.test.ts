import { HIBERNATED_PARAMETER } from '../../../../lib/temporal/contract/temporal-stack-outputs';
import { resourcesOfType, synthScenario, TEMPORAL_SCENARIO_NAMES, withHibernated } from '../../../support/synth';

/*
 * A deploy while hibernated stays hibernated: with the Hibernated parameter true (which `cdk
 * deploy` keeps from the last update), no preset's template asks for a task or an instance.
 */

describe.each([...TEMPORAL_SCENARIO_NAMES.map((n) => [n, 'external']), ['temporal-150wps', 'running'], ['temporal-150wps', 'parked']])(
  '%s, fleet %s',
  (name, fleet) => {
    const json = synthScenario(fleet === 'external' ? { scenario: name } : { scenario: name, fleet }).json;

    test('declares the parameter: false unless set, true or false only', () => {
      expect(json.Parameters[HIBERNATED_PARAMETER]).toMatchObject({ Type: 'String', Default: 'false', AllowedValues: ['false', 'true'] });
    });

    test('hibernated: every service at 0 tasks (or none set), every group at a minimum of 0 and no desired capacity', () => {
      const hibernated = withHibernated(json, true);
      expect(resourcesOfType(hibernated, 'AWS::ECS::Service').map((s) => s.Properties.DesiredCount ?? 0)).toEqual(
        resourcesOfType(hibernated, 'AWS::ECS::Service').map(() => 0),
      );
      for (const g of resourcesOfType(hibernated, 'AWS::AutoScaling::AutoScalingGroup')) {
        expect(g.Properties.MinSize).toBe('0');
        expect(g.Properties.DesiredCapacity).toBeUndefined();
      }
    });

    test('awake: the preset as configured (the counts differ from hibernated ones)', () => {
      const awake = withHibernated(json, false);
      const tasks = resourcesOfType(awake, 'AWS::ECS::Service').reduce((n, s) => n + (s.Properties.DesiredCount ?? 0), 0);
      expect(tasks).toBeGreaterThan(0);
      expect(resourcesOfType(awake, 'AWS::AutoScaling::AutoScalingGroup').some((g) => Number(g.Properties.MinSize) > 0)).toBe(true);
    });
  },
);
