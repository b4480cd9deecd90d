// Package workflows holds the workflow and activity types the benchmark runs. Their names
// are the contract with the generator and the stack's BENCHMARK_WORKFLOW_TYPE.
package workflows

import (
	"context"
	"slices"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

const (
	// Simple runs one activity: the shape of seed 000's benchmark.
	Simple = "simple"
	// MultiActivity runs its activities one after another: more history events and
	// persistence writes per workflow.
	MultiActivity = "multi-activity"
	// Timer waits on a durable timer, then runs one activity: the server keeps the timer in its
	// history store, so a cluster stopped and started while it is due fires it once on its return.
	Timer = "timer"
	// EchoActivity is the only activity: it returns its input.
	EchoActivity = "echo"
)

// Types lists the workflow types a user may pick.
var Types = []string{Simple, MultiActivity, Timer}

// Known says whether name is one of Types.
func Known(name string) bool { return slices.Contains(Types, name) }

// Args are the workflow arguments the generator passes for a type.
func Args(workflowType string, activityCount int, timer time.Duration) []any {
	switch workflowType {
	case MultiActivity:
		return []any{activityCount}
	case Timer:
		return []any{timer}
	}
	return nil
}

// ActivityStartToCloseTimeout is what a lost activity start costs: when history records a start
// whose answer reaches no worker (a matching host leaving mid-poll), the attempt is retried only
// once this has passed. Echo answers in microseconds; 10 s is what Temporal gives a workflow
// task, whose lost start costs the same way (docs/temporal.md, "Faults and rolling deploys").
const ActivityStartToCloseTimeout = 10 * time.Second

func activityContext(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: ActivityStartToCloseTimeout})
}

// SimpleWorkflow executes one echo activity.
func SimpleWorkflow(ctx workflow.Context) error {
	return workflow.ExecuteActivity(activityContext(ctx), EchoActivity, "ping").Get(ctx, nil)
}

// MultiActivityWorkflow executes n echo activities in sequence.
func MultiActivityWorkflow(ctx workflow.Context, n int) error {
	ctx = activityContext(ctx)
	for i := 0; i < n; i++ {
		if err := workflow.ExecuteActivity(ctx, EchoActivity, i).Get(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

// TimerWorkflow sleeps on a durable timer for d, then executes one echo activity.
func TimerWorkflow(ctx workflow.Context, d time.Duration) error {
	if err := workflow.Sleep(ctx, d); err != nil {
		return err
	}
	return workflow.ExecuteActivity(activityContext(ctx), EchoActivity, "timer").Get(ctx, nil)
}

// Echo returns its input.
func Echo(_ context.Context, in any) (any, error) { return in, nil }

// echoAfter answers as Echo does once delay has passed (or the activity is cancelled).
func echoAfter(delay time.Duration) func(context.Context, any) (any, error) {
	return func(ctx context.Context, in any) (any, error) {
		select {
		case <-time.After(delay):
			return in, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Register puts every type on a worker under its contract name.
func Register(r worker.Registry, activityDelay time.Duration) {
	r.RegisterWorkflowWithOptions(SimpleWorkflow, workflow.RegisterOptions{Name: Simple})
	r.RegisterWorkflowWithOptions(MultiActivityWorkflow, workflow.RegisterOptions{Name: MultiActivity})
	r.RegisterWorkflowWithOptions(TimerWorkflow, workflow.RegisterOptions{Name: Timer})
	echo := Echo
	if activityDelay > 0 {
		echo = echoAfter(activityDelay)
	}
	r.RegisterActivityWithOptions(echo, activity.RegisterOptions{Name: EchoActivity})
}
