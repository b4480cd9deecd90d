package workflows

import (
	"context"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
)

func TestWorkflowsRunTheirActivities(t *testing.T) {
	for _, c := range []struct {
		name       string
		args       []any
		activities int
	}{{Simple, nil, 1}, {MultiActivity, []any{4}, 4}} {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		Register(env)
		calls := 0
		env.SetOnActivityStartedListener(func(_ *activity.Info, _ context.Context, _ converter.EncodedValues) { calls++ })
		env.ExecuteWorkflow(c.name, c.args...)
		if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil || calls != c.activities {
			t.Errorf("%s: completed=%v err=%v activities=%d, want %d", c.name, env.IsWorkflowCompleted(), env.GetWorkflowError(), calls, c.activities)
		}
	}
}
