#!/usr/bin/env bash
# Prometheus from the distribution's packages, for the integration test that scrapes the local
# Temporal roles and the benchmark and reads them through the report's own reader. Safe to
# re-run: installs only when the binary is missing. The package's own service is not started
# (the test starts its server on a free loopback port).
set -euo pipefail
if [ -x /usr/bin/prometheus ]; then exit 0; fi
echo "setup-prometheus: installing prometheus from the distribution's packages"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
# policy-rc.d keeps the package's service from starting where services can start.
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null
$sudo service prometheus stop >/dev/null 2>&1 || true
