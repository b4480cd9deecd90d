package workflows

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
)

func TestWorkflowsRunTheirActivities(t *testing.T) {
	for _, c := range []struct {
		name       string
		args       []any
		activities int
	}{{Simple, nil, 1}, {MultiActivity, []any{4}, 4}} {
		var s testsuite.WorkflowTestSuite
		env := newEnv(&s)
		Register(env, 0)
		calls := 0
		env.SetOnActivityStartedListener(func(_ *activity.Info, _ context.Context, _ converter.EncodedValues) { calls++ })
		env.ExecuteWorkflow(c.name, c.args...)
		if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil || calls != c.activities {
			t.Errorf("%s: completed=%v err=%v activities=%d, want %d", c.name, env.IsWorkflowCompleted(), env.GetWorkflowError(), calls, c.activities)
		}
	}
}

func TestTheEchoActivityWorksForItsDelayAndStopsWhenCancelled(t *testing.T) {
	start := time.Now()
	out, err := echoAfter(30*time.Millisecond)(context.Background(), "x")
	if err != nil || out != "x" || time.Since(start) < 30*time.Millisecond {
		t.Fatalf("echoAfter(30ms) = %v, %v after %v; want x, nil after 30ms", out, err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := echoAfter(time.Hour)(ctx, "x"); err == nil {
		t.Fatal("a cancelled activity answered; want its context's error")
	}
}

func TestTimerWorkflowSleepsThenEchoes(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := newEnv(&s)
	Register(env, 0)
	start := env.Now()
	env.ExecuteWorkflow(Timer, Args(Timer, 0, 90*time.Second)...)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("timer workflow: completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	// The test environment skips the timer's time; what it recorded is the timer's length.
	if got := env.Now().Sub(start); got < 90*time.Second {
		t.Fatalf("the workflow's clock moved %v, want at least the 90s timer", got)
	}
}

// newEnv is the SDK's test environment with its deadlock detector given a minute instead of a
// second: the integration suite runs these tests at nice 19 beside busy lanes, where a workflow
// goroutine can wait past a second for the CPU without any deadlock.
func newEnv(s *testsuite.WorkflowTestSuite) *testsuite.TestWorkflowEnvironment {
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	return env
}
