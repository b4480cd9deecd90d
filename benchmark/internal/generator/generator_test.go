package generator

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"db-bench-infra/benchmark/internal/config"
	"db-bench-infra/benchmark/internal/metrics"
	"db-bench-infra/benchmark/internal/workflows"
)

// slowServer completes every workflow after delay, and fails the ones whose start index
// fail returns true.
type slowServer struct {
	delay time.Duration
	fail  func(n int64) bool
	// startErr, when set, fails the nth start with its error.
	startErr func(n int64) error
	// broken waits for a result end with Unavailable before the result arrives.
	broken  int32
	started atomic.Int64
}

func (s *slowServer) ExecuteWorkflow(ctx context.Context, o client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
	n := s.started.Add(1)
	if s.startErr != nil {
		if err := s.startErr(n); err != nil {
			return nil, err
		}
	}
	r := &run{id: o.ID, delay: s.delay, failed: s.fail != nil && s.fail(n)}
	r.broken.Store(s.broken)
	return r, nil
}

type run struct {
	id     string
	delay  time.Duration
	failed bool
	broken atomic.Int32
}

func (r *run) GetID() string    { return r.id }
func (r *run) GetRunID() string { return "run-" + r.id }
func (r *run) Get(ctx context.Context, _ any) error {
	if r.broken.Add(-1) >= 0 {
		return serviceerror.NewUnavailable("frontend went away")
	}
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
func (r *run) GetWithOptions(ctx context.Context, v any, _ client.WorkflowRunGetOptions) error {
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

func TestReportsStartErrorsByCauseAndTheWorkflowsStillOpen(t *testing.T) {
	srv := &slowServer{delay: 10 * time.Millisecond, startErr: func(n int64) error {
		switch {
		case n%5 == 0:
			return serviceerror.NewUnavailable("no frontend")
		case n%7 == 0:
			return context.DeadlineExceeded
		}
		return nil
	}}
	r := Run(context.Background(), srv, settings(20, time.Second, time.Second), metrics.New().Generator(), quiet)
	c := r.Results
	if c.StartErrors != 6 || c.StartErrorsByCause["Unavailable"] != 4 || c.StartErrorsByCause["DeadlineExceeded"] != 2 || len(c.StartErrorIDs) != 6 {
		t.Fatalf("start errors %d by cause %v ids %v", c.StartErrors, c.StartErrorsByCause, c.StartErrorIDs)
	}
	for _, id := range c.StartErrorIDs {
		if !strings.HasPrefix(id, r.Config.WorkflowIDPrefix) {
			t.Errorf("id %q does not start with the run's prefix %q", id, r.Config.WorkflowIDPrefix)
		}
	}
	if got := sum(r.Series.Started) + sum(r.Series.StartErrors); got != 20 || sum(r.Series.Completed) != c.WorkflowsCompleted {
		t.Errorf("series %+v does not add up to the counts %+v", r.Series, c)
	}

	stuck := &slowServer{delay: time.Hour}
	r = Run(context.Background(), stuck, settings(10, 300*time.Millisecond, 200*time.Millisecond), metrics.New().Generator(), quiet)
	if r.Results.WorkflowsTimedOut != 3 || len(r.Results.OpenAtDeadlineIDs) != 3 || r.Passed {
		t.Fatalf("open %d ids %v passed=%v", r.Results.WorkflowsTimedOut, r.Results.OpenAtDeadlineIDs, r.Passed)
	}
}

func TestAWaitTheTransportBrokeIsTakenUpAgain(t *testing.T) {
	// Each result wait fails once with Unavailable (a frontend replaced), then the result comes.
	srv := &slowServer{delay: 10 * time.Millisecond, broken: 1}
	r := Run(context.Background(), srv, settings(10, 500*time.Millisecond, 5*time.Second), metrics.New().Generator(), quiet)
	c := r.Results
	if c.WorkflowsCompleted != 5 || c.WorkflowsFailed != 0 || c.ResultRetriesByCause["Unavailable"] != 5 || !r.Passed {
		t.Fatalf("completed=%d failed=%d retries=%v passed=%v", c.WorkflowsCompleted, c.WorkflowsFailed, c.ResultRetriesByCause, r.Passed)
	}
}

func TestEveryRunHasItsOwnWorkflowIDs(t *testing.T) {
	a := Run(context.Background(), &slowServer{}, settings(10, 100*time.Millisecond, time.Second), metrics.New().Generator(), quiet)
	b := Run(context.Background(), &slowServer{}, settings(10, 100*time.Millisecond, time.Second), metrics.New().Generator(), quiet)
	if a.Config.WorkflowIDPrefix == b.Config.WorkflowIDPrefix {
		t.Fatalf("two runs in the same second share the prefix %q", a.Config.WorkflowIDPrefix)
	}
}

func sum(v []int) int {
	n := 0
	for _, x := range v {
		n += x
	}
	return n
}

func TestARunLeftToFinishEndsNoEarlierThanItsDuration(t *testing.T) {
	// At 4/s for 1 s the last start is due at 750 ms and done by about 760 ms; the run still
	// stands for the whole second, so a window cut from its start and end holds all the load.
	r := Run(context.Background(), &slowServer{delay: 10 * time.Millisecond}, settings(4, time.Second, time.Second), metrics.New().Generator(), quiet)
	if got := r.Window.End.Sub(r.Window.Start); got < time.Second || r.Results.WorkflowsCompleted != 4 {
		t.Fatalf("window %v with %d completed, want at least the 1s duration and all 4", got, r.Results.WorkflowsCompleted)
	}
}
