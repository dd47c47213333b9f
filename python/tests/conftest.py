"""One real `pwp serve` (this tree's CLI) for the whole session; every test drives real containers through it."""
import json
import os
import signal
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'python'))
sys.path.insert(0, os.path.join(ROOT, 'examples'))


def serve(*options):
    """A `pwp serve` of this checkout until the generator is closed: yields its Env server's URL and token."""
    proc = subprocess.Popen([os.path.join(ROOT, 'bin', 'pwp'), 'serve', '--json', *options],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    line = proc.stdout.readline()
    if not line:
        pytest.fail(f'pwp serve exited ({proc.wait()}) before serving')
    info = json.loads(line)
    yield {'url': info['envServer'], 'token': info['token']}
    proc.send_signal(signal.SIGTERM)  # the server removes the environments it opened
    proc.wait(timeout=120)


@pytest.fixture(scope='session')
def server():
    yield from serve('--max-envs', '4')


@pytest.fixture
def lone_server():
    """A server of one environment, recycled for the next episode (the shared one may hand out any of its idle ones)."""
    yield from serve('--max-envs', '1', '--keep', '1')
