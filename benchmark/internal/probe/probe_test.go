package probe

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dsql/auth"
)

func TestSummarize(t *testing.T) {
	var samples []time.Duration
	for i := 100; i >= 1; i-- {
		samples = append(samples, time.Duration(i)*time.Millisecond)
	}
	s := Summarize(samples)
	if s.Queries != 100 || s.MedianMs != 50.5 || s.P99Ms != 99 || s.MinMs != 1 || s.MaxMs != 100 {
		t.Fatalf("got %+v; want 100 queries, median 50.5, p99 99, min 1, max 100", s)
	}
	if odd := Summarize([]time.Duration{3 * time.Millisecond, time.Millisecond, 2 * time.Millisecond}); odd.MedianMs != 2 || odd.P99Ms != 3 {
		t.Fatalf("odd count: got %+v; want median 2, p99 3", odd)
	}
	if empty := Summarize(nil); empty.Queries != 0 {
		t.Fatalf("no samples: got %+v", empty)
	}
}

// The token the probe signs is the one the DSQL plugin signs: admin, for the cluster endpoint.
func TestAdminTokenIsForTheEndpoint(t *testing.T) {
	creds := credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")
	token, err := auth.GenerateDBConnectAdminAuthToken(context.Background(), "abc.dsql.eu-west-1.on.aws", "eu-west-1", creds)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(token, "abc.dsql.eu-west-1.on.aws?Action=DbConnectAdmin&") || !strings.Contains(token, "X-Amz-Credential=AKIDEXAMPLE%2F") || !strings.Contains(token, "%2Feu-west-1%2Fdsql%2Faws4_request") {
		t.Fatalf("unexpected token %q", token)
	}
}

// The Aurora token is the one the servers' passwordCommand signs: their user, at host:port.
func TestRdsTokenIsForTheUser(t *testing.T) {
	creds := credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")
	s := Settings{TokenHost: "w.cluster-x.eu-west-1.rds.amazonaws.com", Port: 5432, User: "temporal_server", Region: "eu-west-1", TokenKind: TokenRds}
	token, err := Token(context.Background(), s, creds)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(token, "w.cluster-x.eu-west-1.rds.amazonaws.com:5432?Action=connect&DBUser=temporal_server&") || !strings.Contains(token, "%2Feu-west-1%2Frds-db%2Faws4_request") {
		t.Fatalf("unexpected token %q", token)
	}
}

// A store that does not answer is an error that names it, not a hang or a zero.
func TestRunNamesAnUnreachableStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := Run(ctx, Settings{Host: "127.0.0.1", Port: 1, User: "u", Database: "d", SSLMode: "disable", Password: "p", Queries: 1}, nil)
	if err == nil || !strings.Contains(err.Error(), "connecting to 127.0.0.1:1") {
		t.Fatalf("got %v", err)
	}
}
