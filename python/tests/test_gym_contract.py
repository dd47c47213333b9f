"""Gymnasium's Env contract on a task Env, checked here without gymnasium, and by gymnasium's own
check_env where gymnasium is importable."""
import copy
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import pwp

TASK = 'vscode-config/rebind-shortcut'


def test_a_task_env_keeps_gymnasiums_contract(server):
    env = pwp.make(TASK, url=server['url'], token=server['token'])
    try:
        assert env.unwrapped is env
        assert env.render_mode == 'rgb_array' and env.render_mode in env.metadata['render_modes'] and env.metadata['render_fps'] > 0
        assert env.spec.id == TASK and env.spec.nondeterministic is True
        assert server['token'] not in repr(env.spec) and server['token'] not in repr(env.spec.kwargs)

        obs, info = env.reset(seed=123)
        assert obs in env.observation_space and isinstance(info, dict) and info['seed'] == 123
        seeded = copy.deepcopy(env.np_random.bit_generator.state)
        assert env.np_random_seed == 123
        env.reset(seed=123)
        assert env.np_random.bit_generator.state == seeded, 'the same seed gives the same generator'
        env.reset(seed=456)
        assert env.np_random.bit_generator.state != seeded

        env.action_space.seed(5)
        action = env.action_space.sample()
        env.action_space.seed(5)
        assert env.action_space.sample() == action and action in env.action_space and action['type'] == 'move'
        result = env.step(action)
        assert isinstance(result, tuple) and len(result) == 5
        obs, reward, terminated, truncated, info = result
        assert obs in env.observation_space and type(reward) is float and type(terminated) is bool and type(truncated) is bool
        assert isinstance(info, dict)

        frame = env.render()
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3

        obs, reward, terminated, truncated, info = env.step({'type': 'done'})
        assert type(reward) is float and reward == 0.0 and terminated is True and info['evaluation']['passed'] is False

        other = env.spec.make()  # gymnasium's make wraps it; its unwrapped Env is ours
        assert isinstance(other.unwrapped, pwp.Env) and other.unwrapped.spec.id == TASK and other.unwrapped.episode_id != env.episode_id
        other.close()
        other.close()
    finally:
        env.close()


def test_gymnasiums_check_env_passes_on_a_task_env_without_warnings(server):
    gymnasium = pytest.importorskip('gymnasium', reason='gymnasium is not importable here (Debian has no package of it)')
    from gymnasium.utils.env_checker import check_env
    env = pwp.make(TASK, url=server['url'], token=server['token'])
    try:
        assert isinstance(env, gymnasium.Env)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            check_env(env)
        said = [str(w.message) for w in caught if 'WARN' in str(w.message)]
        assert said == []
    finally:
        env.close()


def test_without_gymnasium_the_same_api_comes_from_pwp():
    # A fresh interpreter in which gymnasium cannot be imported, whatever this one has.
    script = textwrap.dedent('''
        import sys
        sys.modules['gymnasium'] = None
        import numpy as np
        from pwp import gymapi
        from pwp.env import Env
        from pwp.spaces import JsonSchemaSpace
        assert gymapi.gymnasium is None and Env.__mro__[1] is gymapi.EnvBase

        class Seeded(gymapi.EnvBase):
            pass
        env = Seeded()
        assert env.unwrapped is env and env.spec is None and 'render_modes' in env.metadata
        env.reset(seed=123)
        first = env.np_random.integers(0, 2**31, size=4).tolist()
        assert env.np_random_seed == 123
        env.reset()                                      # no seed: the generator goes on
        going_on = env.np_random.integers(0, 2**31, size=4).tolist()
        env.reset(seed=123)
        assert env.np_random.integers(0, 2**31, size=4).tolist() == first != going_on
        env.reset(seed=456)
        assert env.np_random.integers(0, 2**31, size=4).tolist() != first
        # The same numbers as gymnasium's seeding: a PCG64 from a SeedSequence of the seed.
        assert first == np.random.Generator(np.random.PCG64(np.random.SeedSequence(123))).integers(0, 2**31, size=4).tolist()

        space = JsonSchemaSpace({'properties': {'type': {'enum': ['move', 'done']}, 'x': {}, 'y': {}}, 'required': ['type']}, accepts_strings=True)
        space.seed(9)
        a = space.sample()
        space.seed(9)
        assert space.sample() == a and a in space and 'xdotool key a' in space and {'type': 'fly'} not in space
        assert 0 <= a['x'] < 1280 and 0 <= a['y'] < 800

        made = []
        spec = gymapi.EnvSpec(id='s/t', entry_point=lambda **kw: made.append(kw) or 'env', nondeterministic=True, kwargs={'task': 's/t'})
        assert spec.make(view=True) == 'env' and made == [{'task': 's/t', 'view': True}]
        print('ok')
    ''')
    here = os.path.dirname(os.path.abspath(__file__))
    run = subprocess.run([sys.executable, '-c', script], cwd=os.path.join(here, '..'), capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == 'ok', run.stderr
