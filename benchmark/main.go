// Command benchmark is the Temporal benchmark's worker and load generator, one mode per
// process, configured by environment variables only (internal/config lists them).
//
//	BENCHMARK_WORKER_ONLY=true    polls the task queue and runs the workflows until SIGTERM
//	BENCHMARK_GENERATOR_ONLY=true offers starts at the target rate, waits for completions,
//	                              prints one result JSON line on stdout, exits 0 if the run passed
//	BENCHMARK_PROBE_ONLY=true     times SELECT 1 round trips to the history store, prints one
//	                              result JSON ({"probe": ...}) on stdout, exits 0
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"go.temporal.io/sdk/worker"

	"db-bench-infra/benchmark/internal/config"
	"db-bench-infra/benchmark/internal/generator"
	"db-bench-infra/benchmark/internal/metrics"
	"db-bench-infra/benchmark/internal/probe"
	"db-bench-infra/benchmark/internal/temporal"
	"db-bench-infra/benchmark/internal/workflows"
)

// Exit codes: the run failed its checks, or the program could not run at all.
const (
	exitRunFailed = 1
	exitSetup     = 2
)

// dialTimeout bounds connecting and registering the namespace.
const dialTimeout = 3 * time.Minute

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help") {
		usage()
		return
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(exitSetup)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, cfg, log))
}

func run(ctx context.Context, cfg config.Config, log *slog.Logger) int {
	if cfg.Mode == config.ModeProbe {
		return runProbe(ctx, cfg.Probe, log)
	}
	reg := metrics.New()
	if err := reg.Serve(cfg.PrometheusEndpoint, log); err != nil {
		log.Error("cannot serve metrics", "address", cfg.PrometheusEndpoint, "error", err)
		return exitSetup
	}
	dialCtx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := temporal.Dial(dialCtx, cfg.Address, cfg.Namespace, reg.SDKHandler(), log)
	if err == nil {
		defer c.Close()
		err = temporal.EnsureNamespace(dialCtx, c, cfg.Namespace, log)
	}
	if err != nil {
		log.Error("cannot reach Temporal", "error", err)
		return exitSetup
	}

	if cfg.Mode == config.ModeWorker {
		w := worker.New(c, cfg.TaskQueue, worker.Options{
			MaxConcurrentWorkflowTaskPollers:       cfg.Pollers,
			MaxConcurrentActivityTaskPollers:       cfg.Pollers,
			MaxConcurrentWorkflowTaskExecutionSize: cfg.Slots,
			MaxConcurrentActivityExecutionSize:     cfg.Slots,
		})
		workflows.Register(w, cfg.ActivityDelay)
		log.Info("worker polling", "taskQueue", cfg.TaskQueue, "namespace", cfg.Namespace)
		if err := w.Run(ctxInterrupt(ctx)); err != nil {
			log.Error("worker stopped", "error", err)
			return exitSetup
		}
		return 0
	}

	log.Info("starting generator", "rate", cfg.TargetRate, "duration", cfg.Duration.String(), "rampUp", cfg.RampUp.String(), "workflowType", cfg.WorkflowType)
	result := generator.Run(ctx, c, cfg, reg.Generator(), log)
	// One line: the series makes the result long, and a log line is read whole.
	out, _ := json.Marshal(result)
	fmt.Println(string(out))
	if !result.Passed {
		log.Error("run failed", "reasons", result.FailureReasons)
		return exitRunFailed
	}
	log.Info("done")
	return 0
}

// runProbe measures the store's round trip with the task's own credentials (the ECS task role).
func runProbe(ctx context.Context, s probe.Settings, log *slog.Logger) int {
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	var creds aws.CredentialsProvider
	if s.TokenHost != "" {
		c, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(s.Region))
		if err != nil {
			log.Error("no AWS credentials for the IAM token", "error", err)
			return exitSetup
		}
		creds = c.Credentials
	}
	summary, err := probe.Run(ctx, s, creds)
	if err != nil {
		log.Error("probe failed", "error", err)
		return exitSetup
	}
	out, _ := json.MarshalIndent(map[string]probe.Summary{"probe": summary}, "", "  ")
	fmt.Println(string(out))
	log.Info("probe done", "host", s.Host, "medianMs", summary.MedianMs, "p99Ms", summary.P99Ms)
	return 0
}

// ctxInterrupt adapts a context to the worker's interrupt channel.
func ctxInterrupt(ctx context.Context) <-chan any {
	ch := make(chan any)
	go func() { <-ctx.Done(); close(ch) }()
	return ch
}

func usage() {
	fmt.Println("benchmark: Temporal benchmark worker and load generator, configured by environment variables.")
	fmt.Println()
	w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "VARIABLE\tMODE\tDEFAULT\tMEANING")
	for _, v := range config.Variables {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", v.Name, v.Mode, v.Default, v.Meaning)
	}
	w.Flush()
	fmt.Println()
	fmt.Println("Exit codes: 0 passed (or worker stopped by a signal, or probe done); 1 the run failed its checks (the result JSON says why); 2 bad settings, or Temporal (or, probing, the store) unreachable.")
}
