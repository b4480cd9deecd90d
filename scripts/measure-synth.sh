#!/usr/bin/env bash
# Times `cdk synth` of a scenario against an empty CDK app (same CLI, same runner), alternating
# runs so that machine noise hits both alike. Usage: scripts/measure-synth.sh [scenario] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:-test12}
runs=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
time_of() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
empty=(); app=()
for _ in $(seq "$runs"); do
  empty+=("$(time_of npx cdk synth -q --app 'npx tsx test/support/empty-app.ts' -o "$out/empty")")
  app+=("$(time_of npx cdk synth -q -c scenario="$scenario" -o "$out/app")")
done
e=$(printf '%s\n' "${empty[@]}" | median)
a=$(printf '%s\n' "${app[@]}" | median)
printf 'empty app   median %.2f s  (%s)\n' "$e" "${empty[*]}"
printf '%-11s median %.2f s  (%s)\n' "$scenario" "$a" "${app[*]}"
printf 'ratio       %.2f\n' "$(echo "$a / $e" | bc -l)"
