"""Where the Env server is: PWP_SERVER_URL and PWP_TOKEN when set (pwp serve prints them; pwp
run --agent-cmd sets them), else a `pwp serve` this process starts and stops at exit."""
import atexit
import json
import os
import shutil
import subprocess

from .client import Client

_local = None


def local_server():
    """(url, token) of a `pwp serve` started for this process (the pwp CLI: PWP_CLI or `pwp` on PATH)."""
    global _local
    if _local is None:
        cli = os.environ.get('PWP_CLI') or shutil.which('pwp')
        if not cli:
            raise RuntimeError('no Env server: set PWP_SERVER_URL and PWP_TOKEN (from `pwp serve`), or put the pwp CLI on PATH (or in PWP_CLI)')
        proc = subprocess.Popen([cli, 'serve', '--json'], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = proc.stdout.readline()
        if not line:
            proc.wait()
            raise RuntimeError(f'`{cli} serve` exited ({proc.returncode}) before serving')
        info = json.loads(line)
        atexit.register(_stop, proc)
        _local = (info['envServer'], info['token'])
    return _local


def _stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()


def connect(url=None, token=None, grace_ms=None):
    """A Client to the Env server given, the one in the environment, or a local one."""
    url = url or os.environ.get('PWP_SERVER_URL')
    token = token or os.environ.get('PWP_TOKEN')
    if not url or not token:
        url, token = local_server()
    return Client(url, token, grace_ms=grace_ms)
