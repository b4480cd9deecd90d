import { num } from '../../../../lib/commands/report/report-format';

test('a figure that rounds to zero from below is 0, never "-0"; others keep their sign', () => {
  expect([-0, -0.4, -0.004].map((v) => num(v, 0))).toEqual(['0', '0', '0']);
  expect(num(-0.004, 2)).toBe('0');
  expect(num(-0.6, 0)).toBe('-1');
  expect(num(-1234.5, 1)).toBe('-1,234.5');
  expect(num(null)).toBe('no data');
});
