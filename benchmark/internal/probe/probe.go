// Package probe measures the network round trip from where it runs to the history store:
// one connection, opened as the Temporal servers open theirs (the same host, TLS mode and
// credential), then a series of `SELECT 1`, each one round trip on the open connection.
// Seed 004's question: how much of a workflow's latency is the store's network alone.
package probe

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dsql/auth"
	rdsauth "github.com/aws/aws-sdk-go-v2/feature/rds/auth"
	"github.com/jackc/pgx/v5"
)

// Settings says where and how to connect; a password, or the host an IAM token is signed for.
type Settings struct {
	Host     string
	Port     int
	User     string
	Database string
	// SSLMode as libpq spells it: require (encrypted) or verify-full.
	SSLMode  string
	Password string
	// TokenHost: sign an IAM token for this host instead of a password, of TokenKind.
	TokenHost string
	TokenKind string
	Region    string
	Queries   int
}

// Summary is what one probe measured, in milliseconds.
type Summary struct {
	Host      string  `json:"host"`
	Queries   int     `json:"queries"`
	ConnectMs float64 `json:"connectMs"`
	MedianMs  float64 `json:"medianMs"`
	P99Ms     float64 `json:"p99Ms"`
	MinMs     float64 `json:"minMs"`
	MaxMs     float64 `json:"maxMs"`
}

// The IAM tokens the probe signs, each as the servers of its store sign theirs.
const (
	// TokenDsqlAdmin is an Aurora DSQL admin token for the cluster endpoint (the DSQL plugin's).
	TokenDsqlAdmin = "dsql-admin"
	// TokenRds is an Aurora PostgreSQL token for the user at host:port (the servers' passwordCommand).
	TokenRds = "rds"
)

// Token signs the IAM token that stands in for the password.
func Token(ctx context.Context, s Settings, creds aws.CredentialsProvider) (string, error) {
	if s.TokenKind == TokenRds {
		return rdsauth.BuildAuthToken(ctx, net.JoinHostPort(s.TokenHost, strconv.Itoa(s.Port)), s.Region, s.User, creds)
	}
	return auth.GenerateDBConnectAdminAuthToken(ctx, s.TokenHost, s.Region, creds)
}

// Run connects once and times Queries round trips; creds signs the token when TokenHost is set.
func Run(ctx context.Context, s Settings, creds aws.CredentialsProvider) (Summary, error) {
	password := s.Password
	if s.TokenHost != "" {
		token, err := Token(ctx, s, creds)
		if err != nil {
			return Summary{}, fmt.Errorf("signing the %s token for %s: %w", s.TokenKind, s.TokenHost, err)
		}
		password = token
	}
	dsn := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(s.User, password),
		Host:     net.JoinHostPort(s.Host, strconv.Itoa(s.Port)),
		Path:     "/" + s.Database,
		RawQuery: url.Values{"sslmode": {s.SSLMode}, "application_name": {"store-probe"}}.Encode(),
	}
	cfg, err := pgx.ParseConfig(dsn.String())
	if err != nil {
		return Summary{}, fmt.Errorf("connection settings: %w", err)
	}
	started := time.Now()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return Summary{}, fmt.Errorf("connecting to %s:%d: %w", s.Host, s.Port, err)
	}
	connect := time.Since(started)
	defer conn.Close(context.Background())
	var one int
	// The first query prepares the statement; every later one is a single round trip.
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return Summary{}, fmt.Errorf("SELECT 1: %w", err)
	}
	samples := make([]time.Duration, 0, s.Queries)
	for range s.Queries {
		t := time.Now()
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
			return Summary{}, fmt.Errorf("SELECT 1: %w", err)
		}
		samples = append(samples, time.Since(t))
	}
	sum := Summarize(samples)
	sum.Host = s.Host
	sum.ConnectMs = ms(connect)
	return sum, nil
}

// Summarize gives the median, P99 (nearest rank), min and max of the samples.
func Summarize(samples []time.Duration) Summary {
	if len(samples) == 0 {
		return Summary{}
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	rank := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(sorted)))) - 1
		return sorted[max(0, min(i, len(sorted)-1))]
	}
	median := float64(sorted[(len(sorted)-1)/2]+sorted[len(sorted)/2]) / 2
	return Summary{
		Queries:  len(sorted),
		MedianMs: round(median / 1e6),
		P99Ms:    ms(rank(0.99)),
		MinMs:    ms(sorted[0]),
		MaxMs:    ms(sorted[len(sorted)-1]),
	}
}

func ms(d time.Duration) float64 { return round(float64(d) / 1e6) }

// round keeps microseconds: enough for a loopback, honest for a network.
func round(v float64) float64 { return math.Round(v*1000) / 1000 }
