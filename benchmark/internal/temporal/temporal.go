// Package temporal dials the frontend and makes sure the benchmark namespace exists, both
// with retries: on ECS the workers may start before the frontend accepts connections.
package temporal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"google.golang.org/protobuf/types/known/durationpb"
)

// Retention of the benchmark namespace's closed workflows.
const Retention = 24 * time.Hour

// Dial connects to address, retrying until ctx ends.
func Dial(ctx context.Context, address, namespace string, metrics client.MetricsHandler, log *slog.Logger) (client.Client, error) {
	opts := client.Options{HostPort: address, Namespace: namespace, MetricsHandler: metrics, Logger: sdklog.NewStructuredLogger(log)}
	return retry(ctx, log, "connect to "+address, func() (client.Client, error) { return client.DialContext(ctx, opts) })
}

// EnsureNamespace registers the namespace if it is missing, then waits until the frontend
// serves it (its namespace cache refreshes every few seconds).
func EnsureNamespace(ctx context.Context, c client.Client, namespace string, log *slog.Logger) error {
	ns := c.WorkflowService()
	_, err := ns.RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace:                        namespace,
		WorkflowExecutionRetentionPeriod: durationpb.New(Retention),
	})
	var exists *serviceerror.NamespaceAlreadyExists
	switch {
	case err == nil:
		log.Info("namespace registered", "namespace", namespace)
	case errors.As(err, &exists):
	default:
		return fmt.Errorf("register namespace %s: %w", namespace, err)
	}
	_, err = retry(ctx, log, "describe namespace "+namespace, func() (*workflowservice.DescribeNamespaceResponse, error) {
		return ns.DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	})
	return err
}

func retry[T any](ctx context.Context, log *slog.Logger, what string, f func() (T, error)) (T, error) {
	delay := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		v, err := f()
		if err == nil {
			return v, nil
		}
		log.Warn("retrying", "what", what, "attempt", attempt, "error", err)
		select {
		case <-ctx.Done():
			return v, fmt.Errorf("%s: %w (last error: %v)", what, ctx.Err(), err)
		case <-time.After(delay):
		}
		delay = min(delay*2, 5*time.Second)
	}
}
