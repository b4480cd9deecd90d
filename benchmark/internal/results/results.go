// Package results turns a run's outcomes into the result JSON that `bench run` reads
// (lib/commands/bench/run.ts, generatorResultSchema): counts, rate, latency percentiles in ms.
package results

import (
	"math"
	"sort"
	"time"
)

// Latency holds start-to-close latencies in milliseconds.
type Latency struct {
	Avg float64 `json:"avg"`
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// Counts are what happened to the offered starts.
type Counts struct {
	WorkflowsOffered   int `json:"workflowsOffered"`
	WorkflowsStarted   int `json:"workflowsStarted"`
	WorkflowsCompleted int `json:"workflowsCompleted"`
	WorkflowsFailed    int `json:"workflowsFailed"`
	WorkflowsTimedOut  int `json:"workflowsTimedOut"`
	StartErrors        int `json:"startErrors"`
	// StartErrorsByCause counts the failed starts by gRPC status code (Unavailable,
	// DeadlineExceeded, ResourceExhausted, AlreadyExists, ...).
	StartErrorsByCause map[string]int `json:"startErrorsByCause"`
	// StartErrorIDs and OpenAtDeadlineIDs name those workflows (the first MaxListedIDs of
	// each), so a start that failed on the client but reached the server can be looked up.
	StartErrorIDs     []string `json:"startErrorIds"`
	OpenAtDeadlineIDs []string `json:"openAtDeadlineIds"`
	// ResultRetriesByCause counts the waits for a result that the transport broke (the
	// workflow itself had not ended) and that were taken up again, by status code.
	ResultRetriesByCause map[string]int `json:"resultRetriesByCause"`
	ActualRate           float64        `json:"actualRate"`
	CompletedRate        float64        `json:"completedRate"`
	Latency              Latency        `json:"latency"`
}

// Window is when the run offered load and when it stopped waiting.
type Window struct {
	Start           time.Time `json:"start"`
	LastStart       time.Time `json:"lastStart"`
	End             time.Time `json:"end"`
	DurationSeconds float64   `json:"durationSeconds"`
}

// RunConfig echoes the settings the run used.
type RunConfig struct {
	WorkflowType      string  `json:"workflowType"`
	ActivityCount     int     `json:"activityCount,omitempty"`
	Namespace         string  `json:"namespace"`
	TaskQueue         string  `json:"taskQueue"`
	TargetRate        float64 `json:"targetRate"`
	Duration          string  `json:"duration"`
	RampUp            string  `json:"rampUp"`
	CompletionTimeout string  `json:"completionTimeout"`
	MaxP99LatencyMs   float64 `json:"maxP99LatencyMs,omitempty"`
	// WorkflowIDPrefix starts every workflow ID of the run (then the start's index, from 0):
	// with WorkflowsOffered it names every workflow the run offered.
	WorkflowIDPrefix string `json:"workflowIdPrefix"`
}

// MaxListedIDs bounds each list of workflow IDs in a result.
const MaxListedIDs = 100

// Result is the one JSON object the generator prints.
type Result struct {
	Config         RunConfig `json:"config"`
	Window         Window    `json:"window"`
	Results        Counts    `json:"results"`
	Series         Series    `json:"series"`
	Passed         bool      `json:"passed"`
	FailureReasons []string  `json:"failureReasons"`
}

// Percentile is the nearest-rank percentile (p in 0..100) of sorted values.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	if rank < 1 {
		rank = 1
	}
	return sorted[rank-1]
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/float64(time.Microsecond)) / 1000 }

// Summarize computes the latency table of the completed workflows' latencies.
func Summarize(latencies []time.Duration) Latency {
	if len(latencies) == 0 {
		return Latency{}
	}
	sorted := append([]time.Duration(nil), latencies...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	var sum time.Duration
	for _, l := range sorted {
		sum += l
	}
	return Latency{
		Avg: ms(sum / time.Duration(len(sorted))),
		P50: ms(Percentile(sorted, 50)),
		P90: ms(Percentile(sorted, 90)),
		P95: ms(Percentile(sorted, 95)),
		P99: ms(Percentile(sorted, 99)),
		Max: ms(sorted[len(sorted)-1]),
	}
}

// Judge fills Passed and FailureReasons: every offered start must have started and
// completed, and P99 must be within the threshold when one is set.
func (r *Result) Judge() {
	c := r.Results
	reasons := []string{}
	if c.StartErrors > 0 {
		reasons = append(reasons, plural(c.StartErrors, "start failed", "starts failed"))
	}
	if c.WorkflowsFailed > 0 {
		reasons = append(reasons, plural(c.WorkflowsFailed, "workflow failed", "workflows failed"))
	}
	if c.WorkflowsTimedOut > 0 {
		reasons = append(reasons, plural(c.WorkflowsTimedOut, "workflow was still open at the deadline", "workflows were still open at the deadline")+" (completion timeout "+r.Config.CompletionTimeout+")")
	}
	if c.WorkflowsOffered == 0 {
		reasons = append(reasons, "no workflow was offered")
	}
	if max := r.Config.MaxP99LatencyMs; max > 0 && c.Latency.P99 > max {
		reasons = append(reasons, "P99 latency "+trim(c.Latency.P99)+" ms is above the threshold of "+trim(max)+" ms")
	}
	r.FailureReasons = reasons
	r.Passed = len(reasons) == 0
}
