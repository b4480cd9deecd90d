// Package metrics serves the benchmark's Prometheus metrics (the port the stack's collector
// scrapes): the generator's counts and latency histogram, and the Temporal Go SDK's own
// client and worker metrics (temporal_*), on one registry.
package metrics

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/uber-go/tally/v4"
	tallyprom "github.com/uber-go/tally/v4/prometheus"
	"go.temporal.io/sdk/client"
	sdktally "go.temporal.io/sdk/contrib/tally"
)

// Generator holds the load generator's series.
type Generator struct {
	TargetRate                                        prometheus.Gauge
	Started, Completed, Failed, TimedOut, StartErrors prometheus.Counter
	Latency                                           prometheus.Histogram
}

// timerBuckets are the SDK timers' histogram bounds in seconds: 1 ms to 5 minutes.
var timerBuckets = []float64{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300}

// Registry is one process's metrics.
type Registry struct {
	reg   *prometheus.Registry
	scope tally.Scope
}

// New creates the registry with Go runtime and process collectors.
func New() *Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	// Histograms, not tally's default summaries: a report adds them up across worker tasks
	// (histogram_quantile), and the buckets run to minutes, since a starved worker's
	// schedule-to-start latency is counted in tens of seconds.
	reporter := tallyprom.NewReporter(tallyprom.Options{
		Registerer:              reg,
		Gatherer:                reg,
		DefaultTimerType:        tallyprom.HistogramTimerType,
		DefaultHistogramBuckets: timerBuckets,
	})
	scope, _ := tally.NewRootScope(tally.ScopeOptions{
		CachedReporter:  reporter,
		Separator:       tallyprom.DefaultSeparator,
		SanitizeOptions: &sdktally.PrometheusSanitizeOptions,
	}, time.Second)
	return &Registry{reg: reg, scope: scope}
}

// SDKHandler reports the Temporal SDK's metrics into this registry.
func (r *Registry) SDKHandler() client.MetricsHandler {
	return sdktally.NewMetricsHandler(r.scope)
}

// Generator registers the generator's series.
func (r *Registry) Generator() *Generator {
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: "benchmark_" + name, Help: help})
		r.reg.MustRegister(c)
		return c
	}
	g := &Generator{
		TargetRate:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "benchmark_target_rate", Help: "Offered workflow starts per second once ramped up"}),
		Started:     counter("workflows_started_total", "Workflows started"),
		Completed:   counter("workflows_completed_total", "Workflows completed"),
		Failed:      counter("workflows_failed_total", "Workflows that ended in failure"),
		TimedOut:    counter("workflows_timed_out_total", "Workflows not completed within the completion timeout"),
		StartErrors: counter("workflow_start_errors_total", "StartWorkflow calls that failed"),
		Latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "benchmark_workflow_latency_seconds",
			Help:    "Start-to-close latency of completed workflows, from when each start was due",
			Buckets: prometheus.ExponentialBuckets(0.01, 1.5, 24),
		}),
	}
	r.reg.MustRegister(g.TargetRate, g.Latency)
	return g
}

// Serve exposes /metrics on addr until the process ends; an empty addr serves nothing.
func (r *Registry) Serve(addr string, log *slog.Logger) error {
	if addr == "" {
		return nil
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "error", err)
		}
	}()
	log.Info("serving metrics", "address", ln.Addr().String())
	return nil
}

func listen(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }
