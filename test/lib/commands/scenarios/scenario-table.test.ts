import { CAMPAIGNS } from '../../../../config/campaigns';
import { loadCatalog } from '../../../../config';
import { campaignTable, generatedSections, withScenarioTables } from '../../../../lib/commands/scenarios/scenario-table';

/* The generated tables on their own; the pages that hold them: test/docs/readme.test.ts. */

test('the campaign table has a row per campaign config ships, with its steps in order', () => {
  expect.hasAssertions();
  const table = campaignTable(CAMPAIGNS);
  for (const c of CAMPAIGNS) expect(table).toContain(`| \`${c.name}\` | ${c.title} | ${c.steps.map((s) => `\`${s.scenario}\``).join(', ')} |`);
});

test("a campaign's loads are listed once each, with their durations", () => {
  const table = campaignTable([
    {
      name: 'x',
      title: 't',
      steps: [
        { scenario: 'a', load: { kind: 'wait', duration: '5m' } },
        { scenario: 'b', load: { kind: 'wait', duration: '5m' } },
        { scenario: 'c', load: { kind: 'wait', duration: '10m' } },
      ],
      onEnd: 'leave',
      estimates: { deploy: '1m', ready: '1m', report: '1m' },
    },
  ]);
  expect(table).toContain('| `x` | t | `a`, `b`, `c` | wait 5m, wait 10m | leave |');
});

test('a page with no generated section is refused, naming every marker', () => {
  expect(() => withScenarioTables('# nothing\n', generatedSections(loadCatalog()), 'x.md')).toThrow(
    /^x\.md has no generated scenario section .*campaigns:start/,
  );
});
