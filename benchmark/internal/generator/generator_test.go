package generator

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"db-bench-infra/benchmark/internal/config"
	"db-bench-infra/benchmark/internal/metrics"
	"db-bench-infra/benchmark/internal/workflows"
)

// slowServer completes every workflow after delay, and fails the ones whose start index
// fail returns true.
type slowServer struct {
	delay   time.Duration
	fail    func(n int64) bool
	started atomic.Int64
}

func (s *slowServer) ExecuteWorkflow(ctx context.Context, o client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
	n := s.started.Add(1)
	return run{id: o.ID, delay: s.delay, failed: s.fail != nil && s.fail(n)}, nil
}

type run struct {
	id     string
	delay  time.Duration
	failed bool
}

func (r run) GetID() string    { return r.id }
func (r run) GetRunID() string { return "run-" + r.id }
func (r run) Get(ctx context.Context, _ any) error {
	select {
	case <-time.After(r.delay):
	case <-ctx.Done():
		return ctx.Err()
	}
	if r.failed {
		return errors.New("workflow failed")
	}
	return nil
}
func (r run) GetWithOptions(ctx context.Context, v any, _ client.WorkflowRunGetOptions) error {
	return r.Get(ctx, v)
}

func settings(rate float64, d, timeout time.Duration) config.Config {
	return config.Config{Mode: config.ModeGenerator, Namespace: "benchmark", TaskQueue: "benchmark", WorkflowType: workflows.Simple,
		TargetRate: rate, Duration: d, CompletionTimeout: timeout}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestOpenLoopOffersTheScheduleWhateverTheLatency(t *testing.T) {
	// Every workflow takes 300 ms, far longer than the 20 ms between starts: a closed loop
	// would fall behind; an open loop offers all 50 starts on time and shows the latency.
	srv := &slowServer{delay: 300 * time.Millisecond}
	r := Run(context.Background(), srv, settings(50, time.Second, 5*time.Second), metrics.New().Generator(), quiet)
	c := r.Results
	if c.WorkflowsOffered != 50 || c.WorkflowsStarted != 50 || c.WorkflowsCompleted != 50 || !r.Passed {
		t.Fatalf("offered/started/completed = %d/%d/%d passed=%v %v", c.WorkflowsOffered, c.WorkflowsStarted, c.WorkflowsCompleted, r.Passed, r.FailureReasons)
	}
	if c.Latency.P50 < 300 || c.Latency.Max > 1000 {
		t.Errorf("latency %+v, want every completion at or above the server's 300 ms", c.Latency)
	}
	if c.ActualRate < 45 || c.ActualRate > 55 {
		t.Errorf("actual rate %v, want about 50/s", c.ActualRate)
	}
}

func TestCountsFailuresAndTimeouts(t *testing.T) {
	srv := &slowServer{delay: 10 * time.Millisecond, fail: func(n int64) bool { return n%5 == 0 }}
	r := Run(context.Background(), srv, settings(20, time.Second, time.Second), metrics.New().Generator(), quiet)
	if r.Results.WorkflowsFailed != 4 || r.Results.WorkflowsCompleted != 16 || r.Passed {
		t.Fatalf("failed=%d completed=%d passed=%v", r.Results.WorkflowsFailed, r.Results.WorkflowsCompleted, r.Passed)
	}

	stuck := &slowServer{delay: time.Hour}
	r = Run(context.Background(), stuck, settings(10, 500*time.Millisecond, 200*time.Millisecond), metrics.New().Generator(), quiet)
	if r.Results.WorkflowsTimedOut != 5 || r.Results.WorkflowsCompleted != 0 || r.Passed {
		t.Fatalf("timedOut=%d completed=%d passed=%v", r.Results.WorkflowsTimedOut, r.Results.WorkflowsCompleted, r.Passed)
	}
}

func TestInterruptedRunReportsWhatItStarted(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	r := Run(ctx, &slowServer{delay: 10 * time.Millisecond}, settings(20, 10*time.Second, time.Second), metrics.New().Generator(), quiet)
	if o := r.Results.WorkflowsOffered; o < 4 || o > 7 || r.Results.WorkflowsCompleted != o {
		t.Fatalf("offered=%d completed=%d, want the ~5 due in 250 ms, all completed", o, r.Results.WorkflowsCompleted)
	}
}
