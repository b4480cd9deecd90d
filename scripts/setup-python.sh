#!/usr/bin/env bash
# Creates the virtualenvs of the Python tools the tests run: .venv (cfn-lint, moto) and
# .venv-checkov (checkov, whose pins conflict with moto's). Safe to re-run: a virtualenv is
# reinstalled only when its requirements file changed.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}

venv() {
  local dir=$1 requirements=$2
  [ -x "$dir/bin/python" ] || "$python" -m venv "$dir"
  local stamp=$dir/.requirements.sha256 want
  want=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    echo "$want" > "$stamp"
  fi
}

# Side by side: each install waits on downloads as much as on the CPU.
venv .venv requirements-dev.txt & dev=$!
venv .venv-checkov requirements-checkov.txt & checkov=$!
wait "$dev"
wait "$checkov"
.venv/bin/cfn-lint --version
.venv-checkov/bin/checkov --version
