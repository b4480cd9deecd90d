"""cfn-lint with its rules in two passes, for test/support/lint.ts.

`cfn-lint-pass.py schema <cfn-lint arguments>` runs rule E1001 alone: the template schema, which
descends into every resource's properties through its child rules (nearly all of cfn-lint's
time, and what test/support/lint-units.ts lets run once per distinct resource).
`cfn-lint-pass.py schema --judges <file> <cfn-lint arguments>` validates, of each template the
file names (a JSON object: template path -> the logical ids it judges), only the resources it
judges; the others stay in the template, whole or bare, for what validating those reads of them
(a Ref's or Fn::GetAtt's type), but are not validated themselves (through E3001, the rule that
descends into each resource). A template the file does not name is validated whole.
`cfn-lint-pass.py template <cfn-lint arguments>` runs every other rule: the whole-template ones
(unused parameters, conditions and mappings, size limits, circular dependencies, unique names)
and the rest. Every rule's own check runs in exactly one pass; child rules run through E1001 as
in one plain run. A test holds the two passes to one plain run of cfn-lint.
"""

import json
import sys

from cfnlint.rules._rules import Rules

SCHEMA_ROOT = "E1001"
PASSES = ("schema", "template")

if len(sys.argv) < 2 or sys.argv[1] not in PASSES:
    sys.exit(f"cfn-lint-pass.py: the first argument must be one of {', '.join(PASSES)}, not {sys.argv[1:2]}")
PASS = sys.argv.pop(1)
JUDGES = None
if PASS == "schema" and sys.argv[1:2] == ["--judges"]:
    del sys.argv[1]
    with open(sys.argv.pop(1), encoding="utf-8") as f:
        JUDGES = json.load(f)
RESOURCES_RULE = "E3001"
_run = Rules.run


def judged_only(each_resource):
    """E3001's descent into each resource, for a template JUDGES names: into the resources it judges only."""

    def descend(validator, pattern, instance, schema):
        judged = JUDGES.get(validator.cfn.filename)
        if judged is not None and isinstance(instance, dict):
            instance = {k: v for k, v in instance.items() if k in judged}
        yield from each_resource(validator, pattern, instance, schema)

    return descend


def run(self, filename, cfn, config):
    if SCHEMA_ROOT not in self.data:
        raise SystemExit(f"cfn-lint-pass.py: this cfn-lint has no rule {SCHEMA_ROOT}; the passes need it")
    for rule in self.data.values():
        if (rule.id == SCHEMA_ROOT) != (PASS == "schema"):
            rule.matchall = lambda filename, cfn: iter(())
    if JUDGES is not None:
        resources = self.data.get(RESOURCES_RULE)
        if resources is None or not callable(getattr(resources, "validators", {}).get("patternProperties")):
            raise SystemExit(f"cfn-lint-pass.py: this cfn-lint's {RESOURCES_RULE} does not descend into resources by patternProperties; --judges needs it")
        if not getattr(resources, "judged_only", False):
            resources.validators["patternProperties"] = judged_only(resources.validators["patternProperties"])
            resources.judged_only = True
    return _run(self, filename, cfn, config)


Rules.run = run

from cfnlint.runner.cli import main  # noqa: E402

main()
