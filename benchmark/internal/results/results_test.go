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
			[]string{"2 starts failed", "1 workflow failed", "2 workflows did not complete within the completion timeout"}},
		{"slow", Counts{WorkflowsOffered: 1, WorkflowsStarted: 1, WorkflowsCompleted: 1, Latency: Latency{P99: 1500.5}}, 1000, []string{"P99 latency 1500.5 ms is above the threshold of 1000 ms"}},
		{"nothing offered", Counts{}, 0, []string{"no workflow was offered"}},
	}
	for _, c := range cases {
		r := Result{Config: RunConfig{MaxP99LatencyMs: c.maxP99}, Results: c.counts}
		r.Judge()
		if !reflect.DeepEqual(r.FailureReasons, c.reasons) || r.Passed != (len(c.reasons) == 0) {
			t.Errorf("%s: passed=%v reasons=%q, want %q", c.name, r.Passed, r.FailureReasons, c.reasons)
		}
	}
}
