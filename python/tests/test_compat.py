"""PwP's names (pwp.compat) on a real IDE: what a PwP script calls, answering as PwP answers."""
import pytest
from PIL import Image

import pwp
from pwp.compat import PwP, PwPBench
from scripted_agent import solve_rebind_shortcut


def test_a_pwp_environment_answers_pwps_calls_with_pwps_shapes(server):
    env = PwP(files={'notes.txt': 'first\n'}, url=server['url'], token=server['token'])
    try:
        assert isinstance(env.render(), Image.Image) and env.render().size[0] > 0
        obs = env.get_observation()
        assert set(obs) == {'screenshot', 'clipboard'} and isinstance(obs['screenshot'], Image.Image)

        r = env.step('ls; echo oops >&2; exit 3')
        assert set(r) == {'output', 'exit_code', 'observation'}
        assert r['output'] == 'notes.txt\noops\n' and r['exit_code'] == 3 and isinstance(r['observation']['screenshot'], Image.Image)
        r = env.step('xdotool mousemove 600 400 click 1 && xdotool key ctrl+n')
        assert r['output'] == '' and r['exit_code'] == 0 and isinstance(r['observation']['screenshot'], Image.Image)
        with pytest.raises(pwp.InvalidParamsError, match='shell syntax'):
            env.step('xdotool type hi | tee /tmp/x')
        with pytest.raises(pwp.errors.ForbiddenError, match='root'):
            env.step('id', root=True)
        assert env.run_command('pwd && whoami') == ('/workspace\npwp\n', 0)
        assert env.run_command('ls /nowhere')[1] != 0

        assert env.file_read('notes.txt') == 'first\n' and env.file_read('missing.txt') is None
        env.file_append('notes.txt', 'second\n')
        env.file_replace('notes.txt', 'first', 'one')
        assert env.file_read('/workspace/notes.txt') == 'one\nsecond\n'

        assert env.add_checkpoint('kept') is None
        env.file_write('notes.txt', 'changed\n')
        obs = env.restore_checkpoint('kept')
        assert isinstance(obs['screenshot'], Image.Image) and env.file_read('notes.txt') == 'one\nsecond\n'

        image, marks = env.get_som_image(env.render())
        assert isinstance(image, Image.Image) and marks['marks'] and '] [' in marks['text']
        assert '/view/' in env.get_vnc_connection_info()['novnc_url']
    finally:
        env.stop()
        env.remove()  # PwP's order: stop, then remove; the second is a no-op here
    with pytest.raises(ValueError, match='image'):
        PwP(image_name='pwp_humaneval', url=server['url'], token=server['token'])


def test_pwpbench_gets_an_environment_set_up_on_a_task_and_grades_it_0_then_1(server):
    bench = PwPBench('vscode-config', url=server['url'], token=server['token'])
    try:
        row = next(r for r in bench.get_dataset() if r['name'] == 'vscode-config/rebind-shortcut')
        env = bench.get_env(row)
        try:
            assert isinstance(env.render(), Image.Image)
            reward = bench.get_reward(env, row)
            assert type(reward) is float and reward == 0.0
            with pytest.raises(ValueError, match='not on'):
                bench.get_reward(env, 'vscode-config/swap-words')
            done_reward, _ = solve_rebind_shortcut(env.env)
            assert done_reward == 1.0 and bench.get_reward(env, row) == 1.0, env.env.last_evaluation
        finally:
            env.stop()
        assert PwPBench('swebench', client=bench.client).task_name == 'swe-bench'
        assert {r['suite'] for r in PwPBench('intercode', config='ctf', client=bench.client).get_dataset()} == {'intercode-ctf'}
    finally:
        bench.close()
