"""cfn-lint with its rules in two passes, for test/support/lint.ts.

`cfn-lint-pass.py schema <cfn-lint arguments>` runs rule E1001 alone: the template schema, which
descends into every resource's properties through its child rules (nearly all of cfn-lint's
time, and what test/support/lint-units.ts lets run once per distinct resource).
`cfn-lint-pass.py template <cfn-lint arguments>` runs every other rule: the whole-template ones
(unused parameters, conditions and mappings, size limits, circular dependencies, unique names)
and the rest. Every rule's own check runs in exactly one pass; child rules run through E1001 as
in one plain run. A test holds the two passes to one plain run of cfn-lint.
"""

import sys

from cfnlint.rules._rules import Rules

SCHEMA_ROOT = "E1001"
PASSES = ("schema", "template")

if len(sys.argv) < 2 or sys.argv[1] not in PASSES:
    sys.exit(f"cfn-lint-pass.py: the first argument must be one of {', '.join(PASSES)}, not {sys.argv[1:2]}")
PASS = sys.argv.pop(1)
_run = Rules.run


def run(self, filename, cfn, config):
    if SCHEMA_ROOT not in self.data:
        raise SystemExit(f"cfn-lint-pass.py: this cfn-lint has no rule {SCHEMA_ROOT}; the passes need it")
    for rule in self.data.values():
        if (rule.id == SCHEMA_ROOT) != (PASS == "schema"):
            rule.matchall = lambda filename, cfn: iter(())
    return _run(self, filename, cfn, config)


Rules.run = run

from cfnlint.runner.cli import main  # noqa: E402

main()
