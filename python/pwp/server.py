"""Where the Env server is: PWP_SERVER_URL and PWP_TOKEN when set (pwp serve prints them; pwp
run --agent-cmd sets them), else a `pwp serve` this process starts and stops at exit, run by the
pwp CLI of the checkout this package was installed from."""
import atexit
import json
import os
import shutil
import subprocess

from .client import Client

_local = None
_tokens = {}  # url -> token of the servers this process has connected to


def find_cli():
    """The pwp CLI: PWP_CLI, else the checkout this package was installed from (or is imported from), else `pwp` on PATH."""
    if os.environ.get('PWP_CLI'):
        return os.environ['PWP_CLI']
    for cli in (_installed_from(), os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), 'bin', 'pwp')):
        if cli and os.access(cli, os.X_OK):
            return cli
    return shutil.which('pwp')


def _installed_from():
    try:
        from ._checkout import CLI  # written into the wheel by pwp_build.py
    except ImportError:
        return None
    return CLI


def local_server():
    """(url, token) of a `pwp serve` started for this process."""
    global _local
    if _local is None:
        cli = find_cli()
        if not cli:
            recorded = _installed_from()
            where = f'the checkout it was installed from ({recorded}) is gone' if recorded else 'it was not installed from a pwp checkout'
            raise RuntimeError(f'no pwp CLI to start an Env server ({where}): set PWP_CLI=/path/to/pwp/bin/pwp, '
                               'or PWP_SERVER_URL and PWP_TOKEN from a running `pwp serve`')
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
    token = token or _tokens.get(url) or os.environ.get('PWP_TOKEN')
    if not url or not token:
        url, token = local_server()
    client = Client(url, token, grace_ms=grace_ms)
    _tokens[url] = token
    return client
