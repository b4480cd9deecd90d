#!/usr/bin/env bash
# bubblewrap from the distribution's packages: the integration suite runs each program under its
# task definition's posture (harness/task-posture.ts: the container's user, a read-only root,
# only its writable mount points). Safe to re-run: installs only when bwrap is missing, then
# checks that this machine lets it make a user namespace.
set -euo pipefail
if ! command -v bwrap >/dev/null; then
  echo "setup-bubblewrap: installing bubblewrap from the distribution's packages"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
fi
bwrap --unshare-user --uid 1000 --gid 1000 --ro-bind / / -- true || {
  echo "setup-bubblewrap: bwrap cannot make a user namespace here (kernel.unprivileged_userns_clone, or a container that forbids it)" >&2
  exit 1
}
