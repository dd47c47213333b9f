"""PwP's names on pwp, so that a loop written for PwP ports by changing its imports:

    from pwp.compat import PwP, PwPBench     # PwP: from pwp import PwP, PwPBench

    env = PwP()                              # an IDE on an empty workspace, started
    env.render().save('screen.png')          # a PIL image
    env.step("xdotool mousemove 600 300 click 1")['observation']['screenshot']
    print(env.step('ls')['output'])          # a shell command, as the IDE's user
    env.stop()

    bench = PwPBench('humaneval')
    dataset = bench.get_dataset()
    env = bench.get_env(dataset[0])          # started on the task, set up
    reward = bench.get_reward(env, dataset[0])   # graded outside the environment

Same names and return shapes as PwP's env and bench; what differs is said where it differs
(docs/python.md has the side-by-side table). `env.env` is the gymnasium-style pwp.Env underneath.
"""
from .env import make
from .errors import ForbiddenError, InvalidParamsError, error_from_wire
from .server import connect

# PwP-Bench's names for the families pwp bundles under another suite name.
SUITES = {'swebench': 'swe-bench', 'swebench_mm': 'swe-bench-mm', 'swtbench': 'swt-bench', 'intercode': 'intercode-ctf',
          'resq': 'res-q'}


class PwP:
    """An environment with PwP's methods: screenshots as PIL images, step(command) taking xdotool
    commands as input and any other command as a shell command.

    image_name: PwP's image; pwp runs its own IDE image (a task's image via PwPBench or task=),
    so only PwP's default 'pwp_env' is taken. enable_vnc: serve the live view (its URL in
    get_vnc_connection_info). load_existing_container=False waits for reset() to start.
    task, workspace, files and the other keywords go to pwp.make."""

    def __init__(self, image_name='pwp_env', load_existing_container=True, enable_vnc=True, *, task=None, workspace=None,
                 files=None, **make_options):
        if image_name not in (None, 'pwp_env'):
            raise ValueError(f"image_name {image_name!r}: pwp runs its own IDE image; a benchmark's image comes with its task "
                             "(PwPBench(...).get_env(row), or PwP(task='suite/id'))")
        self.env = make(task, workspace=workspace, files=files, image_format='pil', view=bool(enable_vnc), **make_options)
        self.screen_shot = None
        self.clipboard_content = None
        if load_existing_container:
            try:
                self.reset()
            except BaseException:
                self.env.close()
                raise

    def reset(self):
        """A fresh environment (the task's initial state): the observation {'screenshot', 'clipboard'}."""
        obs, _ = self.env.reset()
        return self._observation(obs)

    def get_observation(self):
        """{'screenshot': PIL image, 'clipboard': None} (PwP leaves the clipboard unread too)."""
        return self._observation(self.env.observe(['screenshot']))

    _get_observation = get_observation

    def render(self):
        """The screen now, a PIL image."""
        return self.env.render()

    def step(self, command, root=False):
        """An xdotool command (or an && chain of them) is input on the IDE's display, run without a shell;
        anything else runs in `sh -c` in /workspace as the IDE's user. Returns {'output', 'exit_code',
        'observation'} as PwP does; an xdotool command the input parser refuses raises InvalidParamsError."""
        if command.lstrip().startswith('xdotool '):
            obs, _, _, _, info = self.env.step(command, raise_errors=False)
            error = info.get('error')
            if error and error.get('code') == InvalidParamsError.code:
                raise error_from_wire(error)
            return {'output': error['message'] if error else '', 'exit_code': 1 if error else 0, 'observation': self._observation(obs)}
        obs, output, exit_code = self._shell(command, root)
        return {'output': output, 'exit_code': exit_code, 'observation': self._observation(obs)}

    def run_command(self, command, root=False, workdir=None, wait=0, with_bash_ic=False, timeout=30):
        """(output, exit_code) of a shell command (stdout then stderr), as the IDE's user."""
        _, output, exit_code = self._shell(command, root, workdir, timeout, shell='bash -ic' if with_bash_ic else 'sh -c')
        if wait:
            self.env.step({'type': 'wait', 'ms': min(int(wait * 1000), 60_000)})
        return output, exit_code

    def add_checkpoint(self, checkpoint_name):
        """Saves the workspace and the IDE's state (editors, settings, history) under a name."""
        self.env.checkpoint(checkpoint_name)

    def restore_checkpoint(self, checkpoint_name):
        """Brings a checkpoint back; the observation after it."""
        self.env.restore(checkpoint_name)
        return self.get_observation()

    def file_read(self, file_name):
        """A file's text (relative paths are in /workspace), or None when it cannot be read."""
        _, output, exit_code = self._shell_argv(['cat', '--', file_name], stderr=False)
        return output if exit_code == 0 else None

    def file_write(self, file_name, content):
        self.env.step({'type': 'write_file', 'path': file_name, 'content': content})

    def file_append(self, file_name, content):
        self.file_write(file_name, (self.file_read(file_name) or '') + content)

    def file_replace(self, file_name, old_content, new_content):
        self.file_write(file_name, (self.file_read(file_name) or '').replace(old_content, new_content))

    def get_som_image(self, img=None, caption_icons=False, force_gap=None):
        """(the screen with Set-of-Marks boxes drawn, marks): PwP's second item is its DOM CSV; pwp's is
        {'marks': [{id, role, text, box, point}...], 'text': '[id] [role] [text]' lines}. `img` is not used:
        the marks are drawn on the screen as it is now."""
        obs = self.env.observe(['marksImage'])
        return obs['marksImage'], obs['marks']

    def get_vnc_connection_info(self):
        """Where to watch and take over: the live view in a browser (novnc_url; it carries its own token)."""
        return {'novnc_url': self.env.view_url, 'vnc_address': None, 'vnc_port': None, 'novnc_port': None, 'password': None}

    def pause(self):
        self.env.pause()

    def resume(self):
        self.env.resume()

    def stop(self):
        """Removes the environment (PwP stops, then remove() removes; here stop does both)."""
        self.env.close()

    def remove(self):
        self.env.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # ---- helpers -------------------------------------------------------------------------------

    def _shell(self, command, root=False, workdir=None, timeout=None, shell='sh -c'):
        if root:
            raise ForbiddenError("root=True: pwp's agents act as the IDE's user, never as root (the container's root is "
                                 "kept for the bridge); put what needs root in the task's set-up or image")
        return self._shell_argv([*shell.split(), command], workdir=workdir, timeout=timeout)

    def _shell_argv(self, argv, workdir=None, timeout=None, stderr=True):
        action = {'type': 'exec', 'argv': argv}
        if workdir:
            action['cwd'] = workdir
        if timeout:
            action['timeoutSec'] = max(1, int(timeout))
        obs, _, _, _, info = self.env.step(action)
        r = info.get('execResult') or {}
        output = r.get('stdout', '') + (r.get('stderr', '') if stderr else '')
        return obs, output, r.get('exitCode', -1)

    def _observation(self, obs):
        self.screen_shot = obs.get('screenshot')
        return {'screenshot': self.screen_shot, 'clipboard': self.clipboard_content}


class PwPBench:
    """A suite of tasks with PwP-Bench's methods. task_name: a pwp suite ('vscode-config'), or PwP-Bench's
    name of a family pwp bundles ('swebench' is swe-bench, 'intercode' intercode-ctf, ...); None: every suite."""

    def __init__(self, task_name=None, config=None, *, url=None, token=None, client=None, **make_options):
        if config not in (None, 'ctf'):
            raise ValueError(f"config {config!r}: pwp bundles InterCode's CTF tasks only (config 'ctf', suite intercode-ctf)")
        self.task_name = SUITES.get(task_name, task_name)
        self.client = client or connect(url, token)
        self.make_options = make_options

    def get_dataset(self):
        """The suite's tasks: [{'name': 'suite/id', 'suite', 'id', 'instruction', 'limits'}...]
        (PwP's rows are each benchmark's own fields; here every family's rows look alike)."""
        params = {'selector': self.task_name} if self.task_name else {}
        return self.client.call('tasks.list', params)['tasks']

    def get_env(self, row, **make_options):
        """A PwP environment started on the task (a row of get_dataset, or 'suite/id') and set up."""
        return PwP(task=_task_name(row), client=self.client, **{**self.make_options, **make_options})

    def get_reward(self, env, row):
        """The task's score for the state now (a float, 1.0 when solved), graded outside the environment
        (in a verifier container where it runs tests); the grading's detail is in env.env.last_evaluation."""
        mine = env.env.task['name'] if env.env.task else None
        if mine != _task_name(row):
            raise ValueError(f'the environment is on {mine}, not on {_task_name(row)}')
        return env.env.reward()

    def run(self, row, agent, seed=None):
        """Runs agent(observation, info) -> action (None ends it with done) on the task's gymnasium-style Env
        until the episode ends; the done step is graded in a verifier container.
        Returns {task, reward, steps, terminated, truncated, evaluation}."""
        env = make(_task_name(row), client=self.client, raise_errors=False, **self.make_options)
        try:
            obs, info = env.reset(seed=seed)
            steps, terminated, truncated, reward = 0, False, False, 0.0
            while not (terminated or truncated):
                action = agent(obs, info)
                obs, reward, terminated, truncated, info = env.step(action if action is not None else {'type': 'done'})
                steps += 1
            if truncated and not terminated:
                reward = env.reward()
            return {'task': env.task['name'] if env.task else None, 'reward': reward, 'steps': steps,
                    'terminated': terminated, 'truncated': truncated, 'evaluation': env.last_evaluation}
        finally:
            env.close()

    def close(self):
        self.client.close()


def _task_name(row):
    return row['name'] if isinstance(row, dict) else row
