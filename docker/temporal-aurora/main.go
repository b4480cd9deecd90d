// Command rds-iam-token prints an IAM authentication token for one Aurora PostgreSQL user:
// what Temporal's passwordCommand (1.31+) runs for every new connection of the servers. The
// token is signed locally (SigV4, valid 15 minutes) with the task role's credentials; nothing
// is sent to AWS but the credential lookup. On failure it prints one line to stderr and exits
// 1, which the server reports with the command's stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/rds/auth"
)

type request struct {
	host, user, region string
	port               int
}

func parse(args []string) (request, error) {
	var r request
	fs := flag.NewFlagSet("rds-iam-token", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&r.host, "host", "", "the writer's endpoint")
	fs.IntVar(&r.port, "port", 5432, "the writer's port")
	fs.StringVar(&r.user, "user", "", "the database user the token logs in as")
	fs.StringVar(&r.region, "region", "", "the cluster's region")
	if err := fs.Parse(args); err != nil {
		return r, fmt.Errorf("%v (valid: --host <endpoint> --port <port> --user <name> --region <region>)", err)
	}
	for _, f := range []struct{ name, value string }{{"host", r.host}, {"user", r.user}, {"region", r.region}} {
		if f.value == "" {
			return r, fmt.Errorf("--%s is missing (valid: --host <endpoint> --port <port> --user <name> --region <region>)", f.name)
		}
	}
	if fs.NArg() > 0 {
		return r, fmt.Errorf("unexpected argument %q (valid: --host <endpoint> --port <port> --user <name> --region <region>)", fs.Arg(0))
	}
	if r.port < 1 || r.port > 65535 {
		return r, fmt.Errorf("--port %d is not a port (valid: 1-65535)", r.port)
	}
	return r, nil
}

// token signs one token; credentials are the SDK's default chain (in a task, the task role).
func token(ctx context.Context, r request, creds aws.CredentialsProvider) (string, error) {
	if creds == nil {
		cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(r.region))
		if err != nil {
			return "", err
		}
		creds = cfg.Credentials
	}
	if _, err := creds.Retrieve(ctx); err != nil {
		return "", errors.New("no AWS credentials: " + firstLine(err.Error()))
	}
	return auth.BuildAuthToken(ctx, net.JoinHostPort(r.host, strconv.Itoa(r.port)), r.region, r.user, creds)
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

func run(args []string, stdout, stderr io.Writer, creds aws.CredentialsProvider) int {
	r, err := parse(args)
	if err == nil {
		// Well inside passwordCommand's own timeout (the rendered config's).
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		var t string
		if t, err = token(ctx, r, creds); err == nil {
			fmt.Fprintln(stdout, t)
			return 0
		}
	}
	fmt.Fprintln(stderr, "rds-iam-token: "+firstLine(err.Error()))
	return 1
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, nil))
}
