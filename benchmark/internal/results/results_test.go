package results

import (
	"reflect"
	"testing"
	"time"
)

func TestSummarizeUsesNearestRank(t *testing.T) {
	var l []time.Duration
	for i := 100; i >= 1; i-- { // 1..100 ms, unsorted on purpose
		l = append(l, time.Duration(i)*time.Millisecond)
	}
	got := Summarize(l)
	want := Latency{Avg: 50.5, P50: 50, P90: 90, P95: 95, P99: 99, Max: 100}
	if got != want {
		t.Fatalf("Summarize = %+v, want %+v", got, want)
	}
	if (Summarize(nil) != Latency{}) {
		t.Fatal("Summarize(nil) should be zero")
	}
}

func TestJudge(t *testing.T) {
	cases := []struct {
		name    string
		counts  Counts
		maxP99  float64
		reasons []string
	}{
		{"all completed", Counts{WorkflowsOffered: 10, WorkflowsStarted: 10, WorkflowsCompleted: 10, Latency: Latency{P99: 300}}, 1000, []string{}},
		{"failures of every kind", Counts{WorkflowsOffered: 10, WorkflowsStarted: 8, WorkflowsCompleted: 5, WorkflowsFailed: 1, WorkflowsTimedOut: 2, StartErrors: 2}, 0,
			[]string{"2 starts failed", "1 workflow failed", "2 workflows were still open at the deadline (completion timeout 2m0s)"}},
		{"slow", Counts{WorkflowsOffered: 1, WorkflowsStarted: 1, WorkflowsCompleted: 1, Latency: Latency{P99: 1500.5}}, 1000, []string{"P99 latency 1500.5 ms is above the threshold of 1000 ms"}},
		{"nothing offered", Counts{}, 0, []string{"no workflow was offered"}},
	}
	for _, c := range cases {
		r := Result{Config: RunConfig{MaxP99LatencyMs: c.maxP99, CompletionTimeout: "2m0s"}, Results: c.counts}
		r.Judge()
		if !reflect.DeepEqual(r.FailureReasons, c.reasons) || r.Passed != (len(c.reasons) == 0) {
			t.Errorf("%s: passed=%v reasons=%q, want %q", c.name, r.Passed, r.FailureReasons, c.reasons)
		}
	}
}

func TestSeriesCountsEachSecondAndWidensForLongRuns(t *testing.T) {
	begin := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := NewSeriesBuilder(begin, 10*time.Second)
	b.Started(begin.Add(100 * time.Millisecond))
	b.Started(begin.Add(900 * time.Millisecond))
	b.StartError(begin.Add(2500 * time.Millisecond))
	b.Completed(begin.Add(2600*time.Millisecond), 40*time.Millisecond)
	// Due at 0.7 s: its latency counts in second 2 by arrival and in second 0 by start.
	b.Completed(begin.Add(2700*time.Millisecond), 2*time.Second)
	s := b.Build(begin.Add(4 * time.Second))
	want := Series{IntervalSeconds: 1, Started: []int{2, 0, 0, 0, 0}, StartErrors: []int{0, 0, 1, 0, 0}, Completed: []int{0, 0, 2, 0, 0}, LatencyP99Ms: []float64{0, 0, 2000, 0, 0}, LatencyP99MsByStart: []float64{2000, 0, 40, 0, 0}}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("series = %+v, want %+v", s, want)
	}
	// Ten hours in at most 3,600 intervals: ten seconds each.
	if got := NewSeriesBuilder(begin, 10*time.Hour).Build(begin.Add(10 * time.Hour)); got.IntervalSeconds != 10 || len(got.Started) != 3601 {
		t.Fatalf("interval %d s, %d intervals", got.IntervalSeconds, len(got.Started))
	}
}
