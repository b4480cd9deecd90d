// Package config reads the benchmark's settings from its environment: the one contract
// between this program and the task definitions that the CDK stack renders
// (lib/temporal-dsql-stack.ts). Every variable is listed in Variables; a bad value is one
// error naming the variable, the value and what is valid.
package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"db-bench-infra/benchmark/internal/probe"
	"db-bench-infra/benchmark/internal/workflows"
)

// Mode is what one process does: poll for and run workflows, or offer load.
type Mode string

const (
	ModeWorker    Mode = "worker"
	ModeGenerator Mode = "generator"
	// ModeProbe times round trips to the history store (package probe) and exits.
	ModeProbe Mode = "probe"
)

// Config is the validated environment.
type Config struct {
	Mode          Mode
	Address       string
	Namespace     string
	TaskQueue     string
	WorkflowType  string
	ActivityCount int
	// Timer is how long a timer workflow sleeps.
	Timer              time.Duration
	TargetRate         float64
	Duration           time.Duration
	RampUp             time.Duration
	CompletionTimeout  time.Duration
	MaxP99Latency      time.Duration
	PrometheusEndpoint string
	Pollers            int
	Slots              int
	ActivityDelay      time.Duration
	Probe              probe.Settings
}

// Variable documents one environment variable of the contract.
type Variable struct {
	Name, Mode, Default, Meaning string
}

// Variables is the whole contract, printed by --help and listed in the README.
var Variables = []Variable{
	{"TEMPORAL_ADDRESS", "both", "(required)", "host:port of the Temporal frontend's gRPC API"},
	{"BENCHMARK_WORKER_ONLY", "worker", "false", "true: run the worker (exactly one of the two modes is true)"},
	{"BENCHMARK_GENERATOR_ONLY", "generator", "false", "true: run the load generator once, print the result JSON, exit"},
	{"BENCHMARK_NAMESPACE", "both", "(required)", "namespace; registered (1-day retention) if missing"},
	{"BENCHMARK_WORKFLOW_TYPE", "both", "(required)", "one of: " + strings.Join(workflows.Types, ", ")},
	{"BENCHMARK_ACTIVITY_COUNT", "generator", "3", "activities per " + workflows.MultiActivity + " workflow (1-100)"},
	{"BENCHMARK_TIMER", "generator", "1m", "how long each " + workflows.Timer + " workflow sleeps on its durable timer, a Go duration"},
	{"BENCHMARK_TASK_QUEUE", "both", "benchmark", "task queue the workers poll and the generator starts on"},
	{"BENCHMARK_TARGET_RATE", "generator", "(required)", "workflow starts per second once ramped up (0 < rate <= 10000)"},
	{"BENCHMARK_DURATION", "generator", "(required)", "how long starts are offered, a Go duration (e.g. 5m)"},
	{"BENCHMARK_RAMP_UP", "generator", "0s", "linear ramp from 0 to the target rate, a Go duration shorter than the duration"},
	{"BENCHMARK_COMPLETION_TIMEOUT", "generator", "2m", "how long to wait for completions after the last start"},
	{"BENCHMARK_MAX_P99_LATENCY", "generator", "0s (off)", "the run fails when P99 start-to-close latency is above this"},
	{"BENCHMARK_WORKER_POLLERS", "worker", "16", "workflow-task and activity-task pollers each"},
	{"BENCHMARK_WORKER_SLOTS", "worker", "200", "concurrent workflow tasks and activities each (at least 2: the Go SDK refuses 1 workflow-task slot)"},
	{"BENCHMARK_ACTIVITY_DELAY", "worker", "0s", "how long each activity works before it answers, a Go duration below the activity's 10s StartToCloseTimeout (models an activity's own work)"},
	{"PROMETHEUS_ENDPOINT", "both", "(off)", "host:port to serve /metrics on, e.g. 0.0.0.0:9090"},
	{"BENCHMARK_PROBE_ONLY", "probe", "false", "true: time round trips to the history store, print the result JSON, exit (no Temporal needed)"},
	{"PROBE_HOST", "probe", "(required)", "the store's host, as the servers connect to it"},
	{"PROBE_PORT", "probe", "5432", "the store's port"},
	{"PROBE_USER", "probe", "(required)", "the user the servers connect as"},
	{"PROBE_DATABASE", "probe", "(required)", "the database the servers use"},
	{"PROBE_SSLMODE", "probe", "require", "libpq sslmode: disable, require or verify-full"},
	{"PROBE_PASSWORD", "probe", "(none)", "the password (Aurora: from its secret); or PROBE_TOKEN_HOST"},
	{"PROBE_TOKEN_HOST", "probe", "(none)", "sign an IAM token for this host instead of a password"},
	{"PROBE_TOKEN_KIND", "probe", "dsql-admin", "dsql-admin: an Aurora DSQL admin token (the cluster endpoint); rds: an Aurora PostgreSQL token for PROBE_USER at the host and PROBE_PORT"},
	{"AWS_REGION", "probe", "(with PROBE_TOKEN_HOST)", "the region the token is signed for"},
	{"PROBE_QUERIES", "probe", "100", "SELECT 1 round trips to time on the open connection (1-100000)"},
}

// FromEnv validates the environment that getenv reads.
func FromEnv(getenv func(string) string) (Config, error) {
	r := reader{getenv: getenv}
	worker := r.boolean("BENCHMARK_WORKER_ONLY")
	generator := r.boolean("BENCHMARK_GENERATOR_ONLY")
	if r.boolean("BENCHMARK_PROBE_ONLY") && r.err == nil {
		if worker || generator {
			return Config{}, fmt.Errorf("BENCHMARK_PROBE_ONLY is true with BENCHMARK_WORKER_ONLY=%q and BENCHMARK_GENERATOR_ONLY=%q: exactly one mode may be true (valid: one process per mode)",
				getenv("BENCHMARK_WORKER_ONLY"), getenv("BENCHMARK_GENERATOR_ONLY"))
		}
		return probeConfig(&r)
	}
	c := Config{
		Address:            r.required("TEMPORAL_ADDRESS"),
		Namespace:          r.required("BENCHMARK_NAMESPACE"),
		TaskQueue:          r.text("BENCHMARK_TASK_QUEUE", "benchmark"),
		WorkflowType:       r.required("BENCHMARK_WORKFLOW_TYPE"),
		PrometheusEndpoint: getenv("PROMETHEUS_ENDPOINT"),
	}
	if r.err != nil {
		return Config{}, r.err
	}
	switch {
	case worker && !generator:
		c.Mode = ModeWorker
		c.Pollers = r.integer("BENCHMARK_WORKER_POLLERS", 16, 1, 1000)
		// The SDK panics on one workflow-task slot (worker.New: "cannot set MaxConcurrentWorkflowTaskExecutionSize to 1").
		c.Slots = r.integer("BENCHMARK_WORKER_SLOTS", 200, 2, 100000)
		c.ActivityDelay = r.duration("BENCHMARK_ACTIVITY_DELAY", "0s", false)
		if r.err == nil && c.ActivityDelay >= workflows.ActivityStartToCloseTimeout {
			r.fail("BENCHMARK_ACTIVITY_DELAY %q is not below the activity's StartToCloseTimeout, %s: every attempt would time out (valid: 0s up to below %s)",
				getenv("BENCHMARK_ACTIVITY_DELAY"), workflows.ActivityStartToCloseTimeout, workflows.ActivityStartToCloseTimeout)
		}
	case generator && !worker:
		c.Mode = ModeGenerator
		c.ActivityCount = r.integer("BENCHMARK_ACTIVITY_COUNT", 3, 1, 100)
		c.Timer = r.duration("BENCHMARK_TIMER", "1m", true)
		c.TargetRate = r.rate("BENCHMARK_TARGET_RATE")
		c.Duration = r.duration("BENCHMARK_DURATION", "", true)
		c.RampUp = r.duration("BENCHMARK_RAMP_UP", "0s", false)
		c.CompletionTimeout = r.duration("BENCHMARK_COMPLETION_TIMEOUT", "2m", true)
		c.MaxP99Latency = r.duration("BENCHMARK_MAX_P99_LATENCY", "0s", false)
		if r.err == nil && c.RampUp >= c.Duration {
			r.fail("BENCHMARK_RAMP_UP %q is not shorter than BENCHMARK_DURATION %q (valid: a ramp-up below the duration)", c.RampUp, c.Duration)
		}
	default:
		return Config{}, fmt.Errorf("BENCHMARK_WORKER_ONLY=%q and BENCHMARK_GENERATOR_ONLY=%q: exactly one must be true (valid: one process per mode)",
			getenv("BENCHMARK_WORKER_ONLY"), getenv("BENCHMARK_GENERATOR_ONLY"))
	}
	if r.err == nil && !workflows.Known(c.WorkflowType) {
		r.fail("BENCHMARK_WORKFLOW_TYPE %q is not a workflow type (valid: %s)", c.WorkflowType, strings.Join(workflows.Types, ", "))
	}
	if r.err != nil {
		return Config{}, r.err
	}
	return c, nil
}

func probeConfig(r *reader) (Config, error) {
	p := probe.Settings{
		Host:      r.required("PROBE_HOST"),
		Port:      r.integer("PROBE_PORT", 5432, 1, 65535),
		User:      r.required("PROBE_USER"),
		Database:  r.required("PROBE_DATABASE"),
		SSLMode:   r.text("PROBE_SSLMODE", "require"),
		Password:  r.getenv("PROBE_PASSWORD"),
		TokenHost: strings.TrimSpace(r.getenv("PROBE_TOKEN_HOST")),
		TokenKind: r.text("PROBE_TOKEN_KIND", probe.TokenDsqlAdmin),
		Region:    strings.TrimSpace(r.getenv("AWS_REGION")),
		Queries:   r.integer("PROBE_QUERIES", 100, 1, 100000),
	}
	if r.err == nil && !slices.Contains([]string{"disable", "require", "verify-full"}, p.SSLMode) {
		r.fail("PROBE_SSLMODE %q is not valid (valid: disable, require, verify-full)", p.SSLMode)
	}
	if r.err == nil && !slices.Contains([]string{probe.TokenDsqlAdmin, probe.TokenRds}, p.TokenKind) {
		r.fail("PROBE_TOKEN_KIND %q is not valid (valid: dsql-admin, rds)", p.TokenKind)
	}
	if r.err == nil && (p.Password == "") == (p.TokenHost == "") {
		r.fail("set exactly one of PROBE_PASSWORD and PROBE_TOKEN_HOST (valid: a password, or the DSQL host an IAM token is signed for)")
	}
	if r.err == nil && p.TokenHost != "" && p.Region == "" {
		r.fail("PROBE_TOKEN_HOST needs AWS_REGION (the region the token is signed for)")
	}
	if r.err != nil {
		return Config{}, r.err
	}
	return Config{Mode: ModeProbe, Probe: p}, nil
}

// reader keeps the first error, so FromEnv reads like a list of fields.
type reader struct {
	getenv func(string) string
	err    error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *reader) required(name string) string {
	v := strings.TrimSpace(r.getenv(name))
	if v == "" {
		r.fail("%s is not set (required; see --help)", name)
	}
	return v
}

func (r *reader) text(name, def string) string {
	if v := strings.TrimSpace(r.getenv(name)); v != "" {
		return v
	}
	return def
}

func (r *reader) boolean(name string) bool {
	v := r.getenv(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail("%s %q is not a boolean (valid: true, false)", name, v)
	}
	return b
}

func (r *reader) integer(name string, def, lo, hi int) int {
	v := r.getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		r.fail("%s %q is not a whole number from %d to %d", name, v, lo, hi)
	}
	return n
}

func (r *reader) rate(name string) float64 {
	v := r.required(name)
	if v == "" {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0 && f <= 10000) {
		r.fail("%s %q is not a rate (valid: workflows per second above 0, at most 10000)", name, v)
	}
	return f
}

// duration takes Go's syntax with a unit ("90s", "5m"); a bare number is refused.
func (r *reader) duration(name, def string, positive bool) time.Duration {
	v := r.getenv(name)
	if v == "" {
		if def == "" {
			r.fail("%s is not set (required; a Go duration such as 5m)", name)
			return 0
		}
		v = def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || (positive && d == 0) {
		bound := "0s or more"
		if positive {
			bound = "above 0"
		}
		r.fail("%s %q is not a duration (valid: a Go duration with a unit, %s, e.g. 90s or 5m)", name, v, bound)
	}
	return d
}
