package results

import (
	"math"
	"sort"
	"time"
)

// maxIntervals bounds a series' length (a result is one log line): a run longer than this
// many seconds counts in wider intervals.
const maxIntervals = 3600

// Series is the run second by second from Window.Start, so that a dip (a fault, a deploy)
// shows: starts and start errors by the interval the call returned in, completions by the
// interval their result arrived in, and the P99 latency of those completions (0: none). The
// same latencies grouped by the interval their start was due tell when the system served new
// work well again: a workflow stalled by a fault arrives late and raises the P99 of the second
// it arrives in, long after the fault is over.
type Series struct {
	IntervalSeconds     int       `json:"intervalSeconds"`
	Started             []int     `json:"started"`
	StartErrors         []int     `json:"startErrors"`
	Completed           []int     `json:"completed"`
	LatencyP99Ms        []float64 `json:"latencyP99Ms"`
	LatencyP99MsByStart []float64 `json:"latencyP99MsByStart"`
}

// SeriesBuilder collects a Series; it is not safe for concurrent use.
type SeriesBuilder struct {
	begin     time.Time
	interval  time.Duration
	started   []int
	errors    []int
	completed []int
	latencies [][]time.Duration
	byStart   [][]time.Duration
}

// NewSeriesBuilder counts from begin in intervals of one second, or wider when a run of
// span would need more than maxIntervals of them.
func NewSeriesBuilder(begin time.Time, span time.Duration) *SeriesBuilder {
	seconds := int(math.Ceil(span.Seconds() / maxIntervals))
	if seconds < 1 {
		seconds = 1
	}
	return &SeriesBuilder{begin: begin, interval: time.Duration(seconds) * time.Second}
}

func (b *SeriesBuilder) index(at time.Time) int {
	i := int(at.Sub(b.begin) / b.interval)
	if i < 0 {
		i = 0
	}
	for len(b.started) <= i {
		b.started = append(b.started, 0)
		b.errors = append(b.errors, 0)
		b.completed = append(b.completed, 0)
		b.latencies = append(b.latencies, nil)
		b.byStart = append(b.byStart, nil)
	}
	return i
}

// Started counts a start that returned at at.
func (b *SeriesBuilder) Started(at time.Time) { b.started[b.index(at)]++ }

// StartError counts a start that failed at at.
func (b *SeriesBuilder) StartError(at time.Time) { b.errors[b.index(at)]++ }

// Completed counts a result that arrived at at, latency after the start was due.
func (b *SeriesBuilder) Completed(at time.Time, latency time.Duration) {
	i := b.index(at)
	b.completed[i]++
	b.latencies[i] = append(b.latencies[i], latency)
	due := b.index(at.Add(-latency))
	b.byStart[due] = append(b.byStart[due], latency)
}

// Build returns the series up to end.
func (b *SeriesBuilder) Build(end time.Time) Series {
	b.index(end)
	return Series{IntervalSeconds: int(b.interval / time.Second), Started: b.started, StartErrors: b.errors, Completed: b.completed, LatencyP99Ms: p99s(b.latencies), LatencyP99MsByStart: p99s(b.byStart)}
}

// p99s is each interval's P99 in milliseconds, 0 where it has none.
func p99s(intervals [][]time.Duration) []float64 {
	p99 := make([]float64, len(intervals))
	for i, l := range intervals {
		if len(l) > 0 {
			sort.Slice(l, func(x, y int) bool { return l[x] < l[y] })
			p99[i] = ms(Percentile(l, 99))
		}
	}
	return p99
}
