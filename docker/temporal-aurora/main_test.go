package main

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

var static = credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")

func TestTokenIsAPresignedConnectForTheUser(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"--host", "temporal-history.cluster-abc.eu-west-1.rds.amazonaws.com", "--port", "5432", "--user", "temporal_server", "--region", "eu-west-1"}
	if code := run(args, &out, &errs, static); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	tok := strings.TrimSuffix(out.String(), "\n")
	// RDS reads the token as a URL without its scheme: host:port/?query.
	u, err := url.Parse("https://" + tok)
	if err != nil {
		t.Fatal(err)
	}
	if u.Host != "temporal-history.cluster-abc.eu-west-1.rds.amazonaws.com:5432" {
		t.Errorf("host %q", u.Host)
	}
	q := u.Query()
	want := map[string]string{"Action": "connect", "DBUser": "temporal_server", "X-Amz-Algorithm": "AWS4-HMAC-SHA256", "X-Amz-Expires": "900", "X-Amz-SignedHeaders": "host"}
	for k, v := range want {
		if q.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, q.Get(k), v)
		}
	}
	if !regexp.MustCompile(`^AKIDEXAMPLE/\d{8}/eu-west-1/rds-db/aws4_request$`).MatchString(q.Get("X-Amz-Credential")) {
		t.Errorf("credential scope %q is not rds-db in eu-west-1", q.Get("X-Amz-Credential"))
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(q.Get("X-Amz-Signature")) {
		t.Errorf("signature %q", q.Get("X-Amz-Signature"))
	}
}

func TestCredentialsFromTheDefaultChain(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDFROMENV")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	var out, errs bytes.Buffer
	if code := run([]string{"--host", "h", "--user", "u", "--region", "us-east-1"}, &out, &errs, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "X-Amz-Credential=AKIDFROMENV%2F") {
		t.Errorf("token not signed with the environment's key: %s", out.String())
	}
}

func TestRefusesWithOneLine(t *testing.T) {
	failing := aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{}, errors.New("no EC2 IMDS role found\nmore detail")
	})
	full := []string{"--host", "h", "--port", "5432", "--user", "u", "--region", "r"}
	cases := []struct {
		args  []string
		creds aws.CredentialsProvider
		want  string
	}{
		{[]string{"--port", "5432", "--user", "u", "--region", "r"}, static, "--host is missing"},
		{[]string{"--host", "h", "--region", "r"}, static, "--user is missing"},
		{[]string{"--host", "h", "--user", "u"}, static, "--region is missing"},
		{append(full, "extra"), static, `unexpected argument "extra"`},
		{[]string{"--host", "h", "--user", "u", "--region", "r", "--port", "0"}, static, "--port 0 is not a port"},
		{[]string{"--hots", "h"}, static, "flag provided but not defined: -hots"},
		{full, failing, "no AWS credentials: no EC2 IMDS role found"},
	}
	for _, c := range cases {
		var out, errs bytes.Buffer
		code := run(c.args, &out, &errs, c.creds)
		if code != 1 || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q", c.args, code, out.String())
		}
		if lines := strings.Count(errs.String(), "\n"); lines != 1 || !strings.HasPrefix(errs.String(), "rds-iam-token: "+c.want) {
			t.Errorf("%v: stderr %q, want one line starting %q", c.args, errs.String(), c.want)
		}
	}
}
