#!/usr/bin/env bash
# Creates the virtualenvs of the Python tools the tests run: .venv (cfn-lint, moto) and
# .venv-checkov (checkov, whose pins conflict with moto's), each from its requirements file
# under its lock (requirements-<name>.lock.txt: every package, as the tests last passed with
# it), so a fresh clone runs the linters the project tested, and their kept results
# (test/support/lint.ts, keyed by the installed versions) still apply. Safe to re-run: a
# virtualenv is reinstalled only when its requirements or lock changed.
#   bash scripts/setup-python.sh --lock   # after changing a requirements file: fresh virtualenvs, new locks
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
relock=${1:-}

venv() {
  local dir=$1 name=$2
  local requirements=requirements-$name.txt lock=requirements-$name.lock.txt
  if [ "$relock" = --lock ]; then
    rm -rf "$dir"
    "$python" -m venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    {
      echo "# Every package $dir holds, from $requirements (scripts/setup-python.sh installs under it)."
      echo "# After changing $requirements: bash scripts/setup-python.sh --lock"
      "$dir/bin/pip" freeze --disable-pip-version-check --exclude-editable
    } >"$lock"
  fi
  [ -x "$dir/bin/python" ] || "$python" -m venv "$dir"
  local stamp=$dir/.requirements.sha256 want
  want=$(cat "$requirements" "$lock" | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" -c "$lock"
    echo "$want" >"$stamp"
  fi
}

# Side by side: each install waits on downloads as much as on the CPU.
venv .venv dev & dev=$!
venv .venv-checkov checkov & checkov=$!
wait "$dev"
wait "$checkov"
.venv/bin/cfn-lint --version
.venv-checkov/bin/checkov --version
