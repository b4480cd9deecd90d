package config

import (
	"strings"
	"testing"
	"time"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func base(extra map[string]string) map[string]string {
	m := map[string]string{"TEMPORAL_ADDRESS": "frontend.temporal.internal:7233", "BENCHMARK_NAMESPACE": "benchmark", "BENCHMARK_WORKFLOW_TYPE": "simple"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestGeneratorSettings(t *testing.T) {
	c, err := FromEnv(env(base(map[string]string{"BENCHMARK_GENERATOR_ONLY": "true", "BENCHMARK_TARGET_RATE": "150", "BENCHMARK_DURATION": "5m", "BENCHMARK_RAMP_UP": "30s"})))
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != ModeGenerator || c.TargetRate != 150 || c.Duration != 5*time.Minute || c.RampUp != 30*time.Second ||
		c.CompletionTimeout != 2*time.Minute || c.TaskQueue != "benchmark" || c.ActivityCount != 3 {
		t.Fatalf("%+v", c)
	}
}

func TestWorkerSettings(t *testing.T) {
	c, err := FromEnv(env(base(map[string]string{"BENCHMARK_WORKER_ONLY": "true", "PROMETHEUS_ENDPOINT": "0.0.0.0:9090"})))
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != ModeWorker || c.Pollers != 16 || c.Slots != 200 || c.PrometheusEndpoint != "0.0.0.0:9090" {
		t.Fatalf("%+v", c)
	}
}

func TestBadSettingsAreOneLineNamingTheVariable(t *testing.T) {
	gen := map[string]string{"BENCHMARK_GENERATOR_ONLY": "true", "BENCHMARK_TARGET_RATE": "150", "BENCHMARK_DURATION": "5m"}
	with := func(k, v string) map[string]string {
		m := base(gen)
		if v == "" {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	cases := map[string]struct {
		env  map[string]string
		want string
	}{
		"no mode":          {base(nil), `BENCHMARK_WORKER_ONLY="" and BENCHMARK_GENERATOR_ONLY="": exactly one must be true`},
		"both modes":       {with("BENCHMARK_WORKER_ONLY", "true"), "exactly one must be true"},
		"no address":       {with("TEMPORAL_ADDRESS", ""), "TEMPORAL_ADDRESS is not set"},
		"unknown workflow": {with("BENCHMARK_WORKFLOW_TYPE", "Simple"), `BENCHMARK_WORKFLOW_TYPE "Simple" is not a workflow type (valid: simple, multi-activity)`},
		"bare number":      {with("BENCHMARK_DURATION", "300"), `BENCHMARK_DURATION "300" is not a duration (valid: a Go duration with a unit`},
		"zero rate":        {with("BENCHMARK_TARGET_RATE", "0"), `BENCHMARK_TARGET_RATE "0" is not a rate`},
		"ramp too long":    {with("BENCHMARK_RAMP_UP", "5m"), `BENCHMARK_RAMP_UP "5m0s" is not shorter than BENCHMARK_DURATION "5m0s"`},
		"bad boolean":      {with("BENCHMARK_GENERATOR_ONLY", "yes"), `BENCHMARK_GENERATOR_ONLY "yes" is not a boolean`},
		"bad count":        {with("BENCHMARK_ACTIVITY_COUNT", "0"), `BENCHMARK_ACTIVITY_COUNT "0" is not a whole number from 1 to 100`},
	}
	for name, c := range cases {
		_, err := FromEnv(env(c.env))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line containing %q", name, err, c.want)
		}
	}
}

func TestEveryVariableIsDocumented(t *testing.T) {
	names := map[string]bool{}
	for _, v := range Variables {
		names[v.Name] = true
	}
	for _, n := range []string{"TEMPORAL_ADDRESS", "BENCHMARK_WORKER_ONLY", "BENCHMARK_GENERATOR_ONLY", "BENCHMARK_TARGET_RATE", "BENCHMARK_DURATION", "BENCHMARK_RAMP_UP", "BENCHMARK_WORKFLOW_TYPE", "BENCHMARK_NAMESPACE", "PROMETHEUS_ENDPOINT"} {
		if !names[n] {
			t.Errorf("%s is read but not in Variables", n)
		}
	}
}
