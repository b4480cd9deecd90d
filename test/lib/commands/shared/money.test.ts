import { unitPrice, usd } from '../../../../lib/commands/shared/money';

test('an amount reads as people write it: to the cent, thousands separated, the sign before the dollar', () => {
  expect([1833.94, 9000, 0.004, -35.2, 1234567.891].map(usd)).toEqual(['$1,833.94', '$9,000.00', '$0.00', '-$35.20', '$1,234,567.89']);
});

test('a unit price keeps the digits it needs', () => {
  expect([0.3638, 1.2, 0.0000095].map(unitPrice)).toEqual(['$0.3638', '$1.20', '$0.0000095']);
});
