package generator

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"google.golang.org/grpc/codes"

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
	series                                            *results.SeriesBuilder
	startErrorCauses, resultRetryCauses               map[string]int
	startErrorIDs, openIDs                            []string
}

func listID(ids []string, id string) []string {
	if len(ids) < results.MaxListedIDs {
		return append(ids, id)
	}
	return ids
}

// cause names an error by its gRPC status code, as the server or the client's deadline set it.
func cause(err error) string {
	return serviceerror.ToStatus(err).Code().String()
}

// transient tells a broken wait for a result (a frontend going away, a store restarting)
// from the workflow's own end (failed, timed out, terminated) and from a workflow the
// server does not know (NotFound: lost, never taken up again).
func transient(err error) bool {
	switch serviceerror.ToStatus(err).Code() {
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted, codes.Internal:
		return true
	}
	return false
}

// resultRetryDelay spaces the waits for a result taken up again after the transport broke.
const resultRetryDelay = time.Second

// Run offers the schedule's starts, waits for their completions until CompletionTimeout
// after the last start, and returns the judged result. It stops offering when ctx ends.
func Run(ctx context.Context, c Starter, cfg config.Config, m *metrics.Generator, log *slog.Logger) results.Result {
	s := Schedule{Rate: cfg.TargetRate, Duration: cfg.Duration, RampUp: cfg.RampUp}
	total := s.Total()
	prefix := fmt.Sprintf("bench-%s-%04x-", time.Now().UTC().Format("20060102T150405"), rand.IntN(1<<16))
	m.TargetRate.Set(cfg.TargetRate)

	begin := time.Now()
	t := &tally{
		latencies:         make([]time.Duration, 0, total),
		series:            results.NewSeriesBuilder(begin, cfg.Duration+cfg.CompletionTimeout),
		startErrorCauses:  map[string]int{},
		resultRetryCauses: map[string]int{},
		startErrorIDs:     []string{},
		openIDs:           []string{},
	}
	var wg sync.WaitGroup
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
			one(waitCtx, c, cfg, fmt.Sprintf("%s%d", prefix, k), due, t, m)
		}(k, due)
	}
	lastStart := time.Now()
	log.Info("all starts offered; waiting for completions", "offered", offered, "timeout", cfg.CompletionTimeout.String())
	wg.Wait()
	// The last start stands for the schedule's rate up to Duration, so a run left to finish ends
	// no earlier: a window read from its start and end then holds all of the load it offered.
	if rest := time.Until(begin.Add(cfg.Duration)); rest > 0 && ctx.Err() == nil {
		rested := time.NewTimer(rest)
		select {
		case <-ctx.Done():
		case <-rested.C:
		}
		rested.Stop()
	}
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
			WorkflowIDPrefix:  prefix,
		},
		Window: results.Window{Start: begin.UTC(), LastStart: lastStart.UTC(), End: end.UTC(), DurationSeconds: round2(end.Sub(begin).Seconds())},
		Results: results.Counts{
			WorkflowsOffered:     offered,
			WorkflowsStarted:     t.started,
			WorkflowsCompleted:   t.completed,
			WorkflowsFailed:      t.failed,
			WorkflowsTimedOut:    t.timedOut,
			StartErrors:          t.startErrors,
			StartErrorsByCause:   t.startErrorCauses,
			StartErrorIDs:        t.startErrorIDs,
			OpenAtDeadlineIDs:    t.openIDs,
			ResultRetriesByCause: t.resultRetryCauses,
			ActualRate:           round2(float64(t.started) / span),
			CompletedRate:        round2(float64(t.completed) / span),
			Latency:              results.Summarize(t.latencies),
		},
		Series: t.series.Build(end),
	}
	if cfg.WorkflowType == workflows.MultiActivity {
		r.Config.ActivityCount = cfg.ActivityCount
	}
	r.Judge()
	return r
}

// one starts a workflow and waits for its result. Latency runs from when the start was
// due (not when the call went out), so time queued on the client counts too. A wait that
// the transport breaks (a frontend going away) is taken up again until ctx ends: only the
// workflow's own end, or the deadline, decides its outcome.
func one(ctx context.Context, c Starter, cfg config.Config, id string, due time.Time, t *tally, m *metrics.Generator) {
	startCtx, cancel := context.WithTimeout(ctx, startTimeout)
	run, err := c.ExecuteWorkflow(startCtx, client.StartWorkflowOptions{ID: id, TaskQueue: cfg.TaskQueue}, cfg.WorkflowType, workflows.Args(cfg.WorkflowType, cfg.ActivityCount, cfg.Timer)...)
	cancel()
	if err != nil {
		m.StartErrors.Inc()
		t.Lock()
		t.startErrors++
		t.startErrorCauses[cause(err)]++
		t.startErrorIDs = listID(t.startErrorIDs, id)
		t.series.StartError(time.Now())
		t.Unlock()
		return
	}
	m.Started.Inc()
	t.Lock()
	t.started++
	t.series.Started(time.Now())
	t.Unlock()

	for {
		err = run.Get(ctx, nil)
		if err == nil || ctx.Err() != nil || !transient(err) {
			break
		}
		t.Lock()
		t.resultRetryCauses[cause(err)]++
		t.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(resultRetryDelay):
		}
	}
	now := time.Now()
	latency := now.Sub(due)
	t.Lock()
	defer t.Unlock()
	switch {
	case err == nil:
		t.completed++
		t.latencies = append(t.latencies, latency)
		t.series.Completed(now, latency)
		m.Completed.Inc()
		m.Latency.Observe(latency.Seconds())
	case ctx.Err() != nil:
		t.timedOut++
		t.openIDs = listID(t.openIDs, id)
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
