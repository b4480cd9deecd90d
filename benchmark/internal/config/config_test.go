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
	if c.Mode != ModeWorker || c.Pollers != 16 || c.Slots != 200 || c.ActivityDelay != 0 || c.PrometheusEndpoint != "0.0.0.0:9090" {
		t.Fatalf("%+v", c)
	}
}

func TestWorkerSlotsAndDelayAreChecked(t *testing.T) {
	worker := func(k, v string) map[string]string {
		return base(map[string]string{"BENCHMARK_WORKER_ONLY": "true", k: v})
	}
	for k, want := range map[[2]string]string{
		{"BENCHMARK_WORKER_SLOTS", "1"}:     `BENCHMARK_WORKER_SLOTS "1" is not a whole number from 2 to 100000`,
		{"BENCHMARK_ACTIVITY_DELAY", "100"}: `BENCHMARK_ACTIVITY_DELAY "100" is not a duration`,
		{"BENCHMARK_ACTIVITY_DELAY", "10s"}: `BENCHMARK_ACTIVITY_DELAY "10s" is not below the activity's StartToCloseTimeout, 10s: every attempt would time out (valid: 0s up to below 10s)`,
	} {
		if _, err := FromEnv(env(worker(k[0], k[1]))); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=%s: got %v, want %q", k[0], k[1], err, want)
		}
	}
	c, err := FromEnv(env(worker("BENCHMARK_ACTIVITY_DELAY", "250ms")))
	if err != nil || c.ActivityDelay.Milliseconds() != 250 {
		t.Fatalf("BENCHMARK_ACTIVITY_DELAY=250ms: %+v, %v", c, err)
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
		"unknown workflow": {with("BENCHMARK_WORKFLOW_TYPE", "Simple"), `BENCHMARK_WORKFLOW_TYPE "Simple" is not a workflow type (valid: simple, multi-activity, timer)`},
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

func TestProbeSettingsNeedNoTemporal(t *testing.T) {
	c, err := FromEnv(env(map[string]string{"BENCHMARK_PROBE_ONLY": "true", "PROBE_HOST": "db", "PROBE_USER": "temporal", "PROBE_DATABASE": "temporal", "PROBE_PASSWORD": "pw"}))
	if err != nil {
		t.Fatal(err)
	}
	p := c.Probe
	if c.Mode != ModeProbe || p.Host != "db" || p.Port != 5432 || p.SSLMode != "require" || p.Queries != 100 || p.Password != "pw" || p.TokenHost != "" {
		t.Fatalf("%+v", c)
	}
	dsql, err := FromEnv(env(map[string]string{"BENCHMARK_PROBE_ONLY": "true", "PROBE_HOST": "x.vpce", "PROBE_USER": "admin", "PROBE_DATABASE": "postgres", "PROBE_TOKEN_HOST": "abc.dsql.eu-west-1.on.aws", "AWS_REGION": "eu-west-1", "PROBE_SSLMODE": "verify-full"}))
	if err != nil || dsql.Probe.TokenHost != "abc.dsql.eu-west-1.on.aws" || dsql.Probe.Region != "eu-west-1" || dsql.Probe.SSLMode != "verify-full" || dsql.Probe.TokenKind != "dsql-admin" {
		t.Fatalf("%+v %v", dsql, err)
	}
	rds, err := FromEnv(env(map[string]string{"BENCHMARK_PROBE_ONLY": "true", "PROBE_HOST": "w", "PROBE_USER": "temporal_server", "PROBE_DATABASE": "temporal", "PROBE_TOKEN_HOST": "w", "PROBE_TOKEN_KIND": "rds", "AWS_REGION": "eu-west-1"}))
	if err != nil || rds.Probe.TokenKind != "rds" || rds.Probe.Password != "" {
		t.Fatalf("%+v %v", rds, err)
	}
}

func TestBadProbeSettings(t *testing.T) {
	probe := map[string]string{"BENCHMARK_PROBE_ONLY": "true", "PROBE_HOST": "db", "PROBE_USER": "u", "PROBE_DATABASE": "d"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range probe {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{with(nil), "set exactly one of PROBE_PASSWORD and PROBE_TOKEN_HOST"},
		{with(map[string]string{"PROBE_PASSWORD": "p", "PROBE_TOKEN_HOST": "h"}), "set exactly one of PROBE_PASSWORD and PROBE_TOKEN_HOST"},
		{with(map[string]string{"PROBE_TOKEN_HOST": "h"}), "PROBE_TOKEN_HOST needs AWS_REGION"},
		{with(map[string]string{"PROBE_TOKEN_HOST": "h", "AWS_REGION": "r", "PROBE_TOKEN_KIND": "rds-db"}), `PROBE_TOKEN_KIND "rds-db" is not valid (valid: dsql-admin, rds)`},
		{with(map[string]string{"PROBE_PASSWORD": "p", "PROBE_SSLMODE": "prefer"}), `PROBE_SSLMODE "prefer" is not valid (valid: disable, require, verify-full)`},
		{with(map[string]string{"PROBE_PASSWORD": "p", "PROBE_QUERIES": "0"}), `PROBE_QUERIES "0" is not a whole number from 1 to 100000`},
		{with(map[string]string{"PROBE_PASSWORD": "p", "BENCHMARK_WORKER_ONLY": "true"}), "exactly one mode may be true"},
		{map[string]string{"BENCHMARK_PROBE_ONLY": "true", "PROBE_USER": "u", "PROBE_DATABASE": "d", "PROBE_PASSWORD": "p"}, "PROBE_HOST is not set"},
	} {
		_, err := FromEnv(env(tc.env))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line with %q", tc.env, err, tc.want)
		}
	}
}
