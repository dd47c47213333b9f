"""The Env server from Python: its limit on environments, several clients and episodes at once, recycling."""
import os
import subprocess
import sys
import threading
import time

import pytest

import pwp


def test_over_the_servers_limit_make_raises_limit_exceeded_naming_it_at_once(server):
    envs = []
    try:
        with pwp.connect(server['url'], server['token']) as probe:
            limit = probe.hello['maxEnvironments'] - probe.hello['environments']
        for _ in range(limit):  # env.make starts nothing: no container until reset
            envs.append(pwp.make(files={'a.txt': 'x'}, url=server['url'], token=server['token']))
        with pytest.raises(pwp.LimitExceededError) as e:
            pwp.make(files={'a.txt': 'x'}, url=server['url'], token=server['token'])
        assert e.value.data['limit'] == 'maxEnvironments' and 'at most' in str(e.value)
        envs.pop().close()
        envs.append(pwp.make(files={'a.txt': 'x'}, url=server['url'], token=server['token']))
    finally:
        for env in envs:
            env.close()


def test_two_clients_drive_two_episodes_at_once_each_seeing_only_its_own(server):
    results, errors = {}, []

    def agent(word):
        try:
            with pwp.make(files={'notes.txt': ''}, observe=['ide'], url=server['url'], token=server['token']) as env:
                env.reset(options={'open': ['notes.txt']})
                env.step(f"xdotool mousemove 800 500 click 1 && xdotool type '{word}'")
                # A loaded machine shows the typing late: asked until it shows (or two minutes pass).
                deadline = time.monotonic() + 120
                while True:
                    text = env.query('ide.editors', maxTextChars=1000)['activeEditor']['visibleText']
                    if text == word or time.monotonic() > deadline:
                        break
                    time.sleep(0.2)
                results[word] = text
        except Exception as e:  # reported below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=agent, args=(w,)) for w in ('alpha', 'bravo')]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert results == {'alpha': 'alpha', 'bravo': 'bravo'}


def _sh(env, command):
    _, _, _, _, info = env.step({'type': 'exec', 'argv': ['sh', '-c', command]})
    return info['execResult']['stdout']


def test_a_closed_episodes_environment_is_recycled_for_the_next_one_with_nothing_of_it_left(lone_server):
    server = lone_server
    with pwp.make(files={'first.txt': 'one\n'}, observe=[], url=server['url'], token=server['token']) as env:
        _, info = env.reset()
        used = info['envId']
        _sh(env, 'echo left > /tmp/left-behind; echo more > extra.txt; setsid sh -c "sleep 3000" >/dev/null 2>&1 &')
        assert 'sleep 3000' in _sh(env, 'ps -eo args')
    with pwp.make(files={'second.txt': 'two\n'}, observe=[], url=server['url'], token=server['token']) as env:
        _, info = env.reset()
        # The same container, put back in place and checked pristine, not a cold start.
        assert info['envId'] == used and info['pooled'] and info['recycled']['episodes'] == 1, info
        assert _sh(env, 'ls -A /workspace').split() == ['second.txt']
        assert _sh(env, 'ls -A /tmp/left-behind 2>/dev/null; ps -eo args | grep -c "^sleep 3000" || true').split() == ['0']


def test_without_a_docker_engine_the_first_make_says_so_as_not_available():
    # This checkout's CLI, started by the package as a user's first pwp.make would, on a machine with no engine.
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
    script = (
        'import pwp\n'
        'try:\n'
        '    pwp.make(files={"a.txt": "x"}).reset()\n'
        'except pwp.NotAvailableError as e:\n'
        '    print("NotAvailableError:", e)\n'
    )
    env = {k: v for k, v in os.environ.items() if k not in ('PWP_SERVER_URL', 'PWP_TOKEN')}
    env.update(DOCKER_HOST='unix:///nonexistent/docker.sock', PWP_CLI=os.path.join(root, 'bin', 'pwp'), PYTHONPATH=os.path.join(root, 'python'))
    run = subprocess.run([sys.executable, '-c', script], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith('NotAvailableError: no Docker engine at unix:///nonexistent/docker.sock'), run.stdout
