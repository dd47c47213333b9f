"""pwp's Python Env against a real Env server and real containers."""
import time

import numpy as np
import pytest

import pwp
from scripted_agent import solve_rebind_shortcut


def test_a_scripted_python_agent_solves_a_task_by_keyboard_and_mouse_and_gets_reward_1(server):
    with pwp.make('vscode-config/rebind-shortcut', url=server['url'], token=server['token']) as env:
        obs, info = env.reset(seed=1)
        assert isinstance(obs['screenshot'], np.ndarray) and obs['screenshot'].shape[2] == 3
        assert 'Duplicate Selection' in obs['instruction']
        assert info['seed'] == 1
        assert env.action_space.contains({'type': 'key', 'keys': 'ctrl+s'})
        assert env.action_space.contains('xdotool key ctrl+s') and not env.action_space.contains({'type': 'fly'})
        reward, info = solve_rebind_shortcut(env)
        assert reward == 1, info.get('evaluation')
        assert info['evaluation']['passed'] is True
        assert env.reward() == 1 and env.last_evaluation['passed'] is True  # graded again, in a fresh verifier
        with pytest.raises(pwp.NotAvailableError, match='episode is over'):
            env.step({'type': 'key', 'keys': 'shift'})


def test_the_null_agent_gets_0_through_the_pwpbench_helper(server):
    bench = pwp.PwPBench('vscode-config', url=server['url'], token=server['token'])
    try:
        dataset = bench.get_dataset()
        row = next(r for r in dataset if r['name'] == 'vscode-config/rebind-shortcut')
        assert len(dataset) > 10 and all(r['suite'] == 'vscode-config' for r in dataset)
        result = bench.run(row, lambda obs, info: None)
        assert result['reward'] == 0 and result['terminated'] and result['steps'] == 1
        assert result['evaluation']['passed'] is False
    finally:
        bench.close()


def test_bad_actions_raise_typed_exceptions_and_the_episode_goes_on(server, tmp_path):
    with pwp.make(files={'notes.txt': 'first line\n'}, observe=['screenshot', 'ide'], image_format='pil',
                  url=server['url'], token=server['token']) as env:
        obs, _ = env.reset(options={'open': ['notes.txt']})
        assert obs['screenshot'].size[0] > 0 and obs['ide']['activeEditor']['path'].endswith('notes.txt')
        with pytest.raises(pwp.InvalidParamsError, match='action'):
            env.step({'type': 'click', 'x': -5, 'y': 10})
        with pytest.raises(pwp.InvalidParamsError, match='exec'):
            env.step('xdotool exec touch /tmp/owned')
        with pytest.raises(pwp.InvalidParamsError, match='shell syntax'):
            env.step("xdotool type hi | cat")
        with pytest.raises(pwp.PwpError, match='no_such_tool'):
            env.step({'type': 'tool', 'name': 'no_such_tool'})
        # PwP's own && chain runs in order, without a shell: click below the text, go to its end, type.
        _, reward, terminated, truncated, info = env.step("xdotool mousemove 800 500 click 1 && xdotool key ctrl+End && xdotool type 'hello world'")
        assert (reward, terminated, truncated) == (0, False, False) and 'error' not in info
        text = until(lambda: env.query('ide.editors', maxTextChars=1000)['activeEditor']['visibleText'], lambda t: 'hello world' in t)
        assert 'first line\nhello world' in text
        assert any(f.endswith('notes.txt') for f in env.ide_state()['dirtyFiles'])
        marks = env.marks()
        assert marks['marks'] and '[' in marks['text']
        listing = env.tool('list_dir', relative_workspace_path='.')
        assert 'notes.txt' in str(listing)
        env.step({'type': 'key', 'keys': 'ctrl+s'})
        env.checkpoint('saved')
        env.step({'type': 'write_file', 'path': 'notes.txt', 'content': 'overwritten\n'})
        env.restore('saved')
        assert 'hello world' in env.query('ide.editors', maxTextChars=1000)['activeEditor']['visibleText']


def until(read, ok, timeout=120):
    """What read() gives once ok(it) holds, or its last answer after `timeout` s (a loaded machine shows input late)."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if ok(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def test_a_warm_episode_resets_again_from_a_spare_prepared_in_the_background(server):
    with pwp.make(files={'loop.txt': 'start\n'}, observe=['ide'], warm=True, url=server['url'], token=server['token']) as env:
        _, first = env.reset(options={'open': ['loop.txt']})
        assert first['staged'] is False
        env.step({'type': 'type', 'text': 'EDITED '})
        until(lambda: env.ide_state()['dirtyFiles'], lambda d: len(d) == 1)
        obs, second = env.reset(options={'open': ['loop.txt']})
        # Another environment, or the first one recycled (the pool's check passed) and staged again.
        assert second['staged'] is True and (second['envId'] != first['envId'] or second['recycled']['episodes'] == 1), second
        assert obs['ide']['activeEditor']['path'] == '/workspace/loop.txt' and obs['ide']['dirtyFiles'] == []
        assert env.query('ide.editors', maxTextChars=100)['activeEditor']['visibleText'] == 'start\n'


def test_make_with_view_gives_the_live_view_url_in_info_and_says_it_once(server, capsys):
    with pwp.make(files={'a.txt': 'x\n'}, observe=[], view=True, url=server['url'], token=server['token']) as env:
        _, info = env.reset()
        assert info['viewUrl'] and '/view/' in info['viewUrl'] and env.view_url == info['viewUrl']
        assert f'watch and take part live at {info["viewUrl"]}' in capsys.readouterr().err
    with pwp.make(files={'a.txt': 'x\n'}, observe=[], url=server['url'], token=server['token']) as env:
        _, info = env.reset()
        assert info['viewUrl'] is None and env.view_url is None
