package generator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"db-bench-infra/benchmark/internal/config"
	"db-bench-infra/benchmark/internal/metrics"
	"db-bench-infra/benchmark/internal/results"
	"db-bench-infra/benchmark/internal/workflows"
)

// Starter is the part of the Temporal client the generator uses.
type Starter interface {
	ExecuteWorkflow(ctx context.Context, options client.StartWorkflowOptions, workflow any, args ...any) (client.WorkflowRun, error)
}

// startTimeout bounds one StartWorkflow call; a start slower than this counts as an error.
const startTimeout = 30 * time.Second

type tally struct {
	sync.Mutex
	started, completed, failed, timedOut, startErrors int
	latencies                                         []time.Duration
}

// Run offers the schedule's starts, waits for their completions until CompletionTimeout
// after the last start, and returns the judged result. It stops offering when ctx ends.
func Run(ctx context.Context, c Starter, cfg config.Config, m *metrics.Generator, log *slog.Logger) results.Result {
	s := Schedule{Rate: cfg.TargetRate, Duration: cfg.Duration, RampUp: cfg.RampUp}
	total := s.Total()
	runID := time.Now().UTC().Format("20060102T150405")
	m.TargetRate.Set(cfg.TargetRate)

	t := &tally{latencies: make([]time.Duration, 0, total)}
	var wg sync.WaitGroup
	begin := time.Now()
	// Completions are awaited until this deadline whatever happens to ctx, so an
	// interrupted run still reports what it started.
	waitDeadline := begin.Add(cfg.Duration + cfg.CompletionTimeout)
	waitCtx, cancelWait := context.WithDeadline(context.Background(), waitDeadline)
	defer cancelWait()

	stopProgress := progress(log, t, total)
	offered := 0
	timer := time.NewTimer(0)
	defer timer.Stop()
offer:
	for k := 0; k < total; k++ {
		due := begin.Add(s.Due(k))
		if wait := time.Until(due); wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				break offer
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			break
		}
		offered++
		wg.Add(1)
		go func(k int, due time.Time) {
			defer wg.Done()
			one(waitCtx, c, cfg, fmt.Sprintf("bench-%s-%d", runID, k), due, t, m)
		}(k, due)
	}
	lastStart := time.Now()
	log.Info("all starts offered; waiting for completions", "offered", offered, "timeout", cfg.CompletionTimeout.String())
	wg.Wait()
	stopProgress()
	end := time.Now()

	t.Lock()
	defer t.Unlock()
	span := lastStart.Sub(begin).Seconds()
	r := results.Result{
		Config: results.RunConfig{
			WorkflowType:      cfg.WorkflowType,
			Namespace:         cfg.Namespace,
			TaskQueue:         cfg.TaskQueue,
			TargetRate:        cfg.TargetRate,
			Duration:          cfg.Duration.String(),
			RampUp:            cfg.RampUp.String(),
			CompletionTimeout: cfg.CompletionTimeout.String(),
			MaxP99LatencyMs:   float64(cfg.MaxP99Latency) / float64(time.Millisecond),
		},
		Window: results.Window{Start: begin.UTC(), LastStart: lastStart.UTC(), End: end.UTC(), DurationSeconds: round2(end.Sub(begin).Seconds())},
		Results: results.Counts{
			WorkflowsOffered:   offered,
			WorkflowsStarted:   t.started,
			WorkflowsCompleted: t.completed,
			WorkflowsFailed:    t.failed,
			WorkflowsTimedOut:  t.timedOut,
			StartErrors:        t.startErrors,
			ActualRate:         round2(float64(t.started) / span),
			CompletedRate:      round2(float64(t.completed) / span),
			Latency:            results.Summarize(t.latencies),
		},
	}
	if cfg.WorkflowType == workflows.MultiActivity {
		r.Config.ActivityCount = cfg.ActivityCount
	}
	r.Judge()
	return r
}

// one starts a workflow and waits for its result. Latency runs from when the start was
// due (not when the call went out), so time queued on the client counts too.
func one(ctx context.Context, c Starter, cfg config.Config, id string, due time.Time, t *tally, m *metrics.Generator) {
	startCtx, cancel := context.WithTimeout(ctx, startTimeout)
	run, err := c.ExecuteWorkflow(startCtx, client.StartWorkflowOptions{ID: id, TaskQueue: cfg.TaskQueue}, cfg.WorkflowType, workflows.Args(cfg.WorkflowType, cfg.ActivityCount)...)
	cancel()
	if err != nil {
		m.StartErrors.Inc()
		t.Lock()
		t.startErrors++
		t.Unlock()
		return
	}
	m.Started.Inc()
	t.Lock()
	t.started++
	t.Unlock()

	err = run.Get(ctx, nil)
	latency := time.Since(due)
	t.Lock()
	defer t.Unlock()
	switch {
	case err == nil:
		t.completed++
		t.latencies = append(t.latencies, latency)
		m.Completed.Inc()
		m.Latency.Observe(latency.Seconds())
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		t.timedOut++
		m.TimedOut.Inc()
	default:
		t.failed++
		m.Failed.Inc()
	}
}

// progress logs the counts every 10 s until the returned function is called.
func progress(log *slog.Logger, t *tally, total int) func() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				t.Lock()
				log.Info("progress", "scheduled", total, "started", t.started, "completed", t.completed, "failed", t.failed+t.startErrors)
				t.Unlock()
			}
		}
	}()
	return func() { close(done); <-stopped }
}

func round2(f float64) float64 {
	if f != f || f > 1e15 {
		return 0
	}
	return float64(int64(f*100+0.5)) / 100
}
