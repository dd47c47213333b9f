#!/usr/bin/env bash
# Everything pwp needs on the host, done once and skipped when already there:
# node modules, a running Docker engine (installed from Debian where missing),
# debootstrap for building the base image without a registry.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'pwp setup: %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }
apt_install() {
  say "installing $* from Debian"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null \
    && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# 1. node modules (npm ci when the lock file changed since the last install). A node_modules that
# is a link (a git worktree sharing another checkout's) is that checkout's to install: npm ci
# through the link would empty it under the other checkout.
if [ -L node_modules ]; then
  say "node_modules is a link to $(readlink -f node_modules): not reinstalling it here"
elif [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing node modules"
  # Once more after a failure: npm retries a dropped connection only within one fetch, and a
  # fresh machine's first install meets the registry cold.
  npm ci --no-audit --no-fund --loglevel=error >&2 \
    || { say "npm ci failed (exit $?); trying once more in 10 s"; sleep 10; npm ci --no-audit --no-fund --loglevel=error >&2; }
fi

# 2. a Docker engine
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1; then
    apt_install docker.io || { say "no Docker engine: install one (Debian/Ubuntu: sudo apt-get install -y docker.io) and re-run"; exit 1; }
  fi
  if ! docker info >/dev/null 2>&1; then
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
      as_root systemctl start docker || true
    fi
  fi
  if ! docker info >/dev/null 2>&1; then
    [ "$(id -u)" -eq 0 ] || { say "the Docker engine is not running and this user cannot start it: run 'sudo dockerd &' or add yourself to the docker group"; exit 1; }
    say "starting dockerd (log: /var/log/pwp-dockerd.log)"
    nohup dockerd >/var/log/pwp-dockerd.log 2>&1 &
    for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
    docker info >/dev/null 2>&1 || { say "dockerd did not come up; see /var/log/pwp-dockerd.log"; exit 1; }
  fi
fi

# 3. debootstrap, for bootstrapping debian:bookworm-slim where no registry answers
if ! command -v debootstrap >/dev/null 2>&1 && ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
  apt_install debootstrap || say "debootstrap missing: the base image can only be pulled from a registry"
fi
# 4. inotify: every environment's IDE watches files as the same uid (1000) on the shared
# kernel; the common default of 128 instances per user caps a host at about 9 environments.
if [ "$(cat /proc/sys/fs/inotify/max_user_instances 2>/dev/null || echo 1024)" -lt 1024 ]; then
  as_root sysctl -qw fs.inotify.max_user_instances=1024 2>/dev/null \
    || say "could not raise fs.inotify.max_user_instances (now $(cat /proc/sys/fs/inotify/max_user_instances)); many parallel environments may fail to watch files"
fi
# 5. Debian's Chromium, which the browser tests of pwp's own pages (inspector, live view) drive
# through playwright-core; never a downloaded browser build.
if [ ! -x /usr/bin/chromium ]; then
  apt_install chromium || say "chromium missing: the inspector and live-view browser tests cannot run"
fi
# 6. Debian's Python with what the Python package (python/) uses and its tests need: venv (the
# README installs the package into one), pytest, numpy and Pillow (test/integration/python.test.ts
# runs /usr/bin/python3 -m pytest).
if ! /usr/bin/python3 -c 'import ensurepip, pytest, numpy, PIL' >/dev/null 2>&1; then
  apt_install python3 python3-venv python3-pytest python3-numpy python3-pil \
    || say "python3-venv/pytest/numpy/pil missing: the Python package's tests cannot run"
fi
say "ready (docker $(docker version --format '{{.Server.Version}}' 2>/dev/null))"
