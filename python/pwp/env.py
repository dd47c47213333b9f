"""A gymnasium-style Env on an episode of pwp's Env server.

    env = pwp.make('vscode-config/rebind-shortcut')
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step("xdotool mousemove 600 300 click 1")

Actions are dicts ({'type': 'key', 'keys': 'ctrl+s'}; env.action_space.schema lists every
kind) or PwP's xdotool strings, `&&` chains included (run in order, never in a shell). A
refused or failed action raises its typed exception (pwp.errors) and the episode goes on;
step(..., raise_errors=False) returns it in info['error'] instead.
"""
import os
import re
import sys

from . import images
from .errors import error_from_wire
from .gymapi import EnvBase, EnvSpec
from .server import connect
from .spaces import JsonSchemaSpace


class Env(EnvBase):
    """A gymnasium.Env when gymnasium is importable; the same API from pwp.gymapi when not."""
    # render() is the screen as an array; a video of an episode (gymnasium's RecordVideo) plays
    # its steps at about the pace an agent takes them.
    metadata = {'render_modes': ['rgb_array'], 'render_fps': 2}
    render_mode = 'rgb_array'

    def __init__(self, client, made, image_format=None, owns_client=True, attached_episode=None, raise_errors=True,
                 spec_kwargs=None):
        self.client = client
        self.episode_id = attached_episode or made['episodeId']
        self.task = made.get('task')
        self.attached = attached_episode is not None
        self.image_format = images.check_format(image_format or images.default_format())
        self.raise_errors = raise_errors
        self.action_space = JsonSchemaSpace(made['actionSpace'], accepts_strings=True)
        self.observation_space = JsonSchemaSpace(made['observationSpace'])
        self.last_evaluation = None
        self.view_url = None
        # How to make this Env again (gymnasium's spec.make); an attached episode has none. A real IDE
        # is not deterministic (a blinking cursor, the clock), and the spec says so.
        self.spec = None if spec_kwargs is None else EnvSpec(
            id=_spec_id(self.task['name'] if self.task else None), entry_point=make, nondeterministic=True, kwargs=spec_kwargs)
        self._owns_client = owns_client
        self._closed = False

    # ---- gymnasium ----------------------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        """A fresh environment on the task's initial state (or the workspace): (observation, info).
        An episode handed over by `pwp run --agent-cmd` is already reset: this observes it.
        `seed` seeds np_random as gymnasium does, and goes to the server (info['seed'])."""
        super().reset(seed=seed, options=options)
        if self.attached:
            return self.observe(), {'attached': True, 'episodeId': self.episode_id}
        params = {'episodeId': self.episode_id}
        if seed is not None:
            params['seed'] = int(seed)
        if options:
            params['options'] = options
        r = self.client.call('env.reset', params)
        info = r['info']
        # make(view=True): where a person watches and takes control, in info and said once.
        if info.get('viewUrl') and info['viewUrl'] != self.view_url:
            print(f'pwp: watch and take part live at {info["viewUrl"]}', file=sys.stderr)
        self.view_url = info.get('viewUrl')
        return self._obs(r['observation']), info

    def step(self, action, raise_errors=None):
        """One action (a dict, or a PwP xdotool string): (observation, reward, terminated, truncated, info)."""
        r = self.client.call('env.step', {'episodeId': self.episode_id, 'action': action})
        info = r['info']
        if info.get('evaluation'):
            self.last_evaluation = info['evaluation']
        if info.get('error') and (self.raise_errors if raise_errors is None else raise_errors):
            raise error_from_wire(info['error'])
        return self._obs(r['observation']), float(r['reward']), bool(r['terminated']), bool(r['truncated']), info

    def render(self):
        """The screen now: an H x W x 3 uint8 array, or what image_format says ('pil': a PIL image)."""
        return self.observe(['screenshot']).get('screenshot')

    def close(self):
        """Removes the environment (an attached episode is left to the run that owns it)."""
        if self._closed:
            return
        self._closed = True
        try:
            if not self.attached:
                self.client.call('env.close', {'episodeId': self.episode_id})
        finally:
            if self._owns_client:
                self.client.close()

    # ---- beyond gymnasium -----------------------------------------------------------------------

    def observe(self, kinds=None):
        """What the screen and IDE show now, without acting: kinds from screenshot, marks, marksImage, delta, cursor, focused, ide."""
        params = {'episodeId': self.episode_id}
        if kinds is not None:
            params['kinds'] = list(kinds)
        return self._obs(self.client.call('env.observe', params))

    def marks(self):
        """Set-of-Marks: {'marks': [{id, role, text, box, point, part}...], 'text': '[id] [role] [text]' lines}."""
        return self.observe(['marks'])['marks']

    def ide_state(self):
        """The IDE in a few fields: active editor and cursor, open and unsaved files, problem counts."""
        return self.observe(['ide'])['ide']

    def query(self, method, **params):
        """A read-only bridge call (ide.editors, ide.diagnostics, ide.settings.get, dom.focused, tools.list, ...)."""
        return self.client.call('env.query', {'episodeId': self.episode_id, 'method': method, 'params': params})

    def tool(self, name, **args):
        """Calls an IDE tool (pwp's tool set, e.g. read_file) as a step; returns its result."""
        _, _, _, _, info = self.step({'type': 'tool', 'name': name, 'args': args})
        return info.get('toolResult')

    def reward(self):
        """The reward for the state now; for a task, graded in a verifier container (detail in last_evaluation)."""
        r = self.client.call('env.reward', {'episodeId': self.episode_id})
        self.last_evaluation = r.get('evaluation')
        return float(r['reward'])

    def checkpoint(self, name):
        return self.client.call('env.checkpoint', {'episodeId': self.episode_id, 'name': name})

    def restore(self, name, new_container=False):
        return self.client.call('env.restore', {'episodeId': self.episode_id, 'name': name, 'newContainer': bool(new_container)})

    def hand_off(self, message, timeout_ms=None):
        """Asks the person in the live view to take over; returns once they hand back."""
        params = {'episodeId': self.episode_id, 'message': message}
        if timeout_ms is not None:
            params['timeoutMs'] = int(timeout_ms)
        return self.client.call('env.handOff', params)

    def pause(self):
        self.client.call('env.pause', {'episodeId': self.episode_id})

    def resume(self):
        self.client.call('env.resume', {'episodeId': self.episode_id})

    @property
    def instruction(self):
        return self.task['instruction'] if self.task else None

    def _obs(self, obs):
        shot = obs.get('screenshot')
        if shot and shot.get('width'):
            self.action_space.screen = (shot['width'], shot['height'])
        return images.convert_observation(obs, self.image_format)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def make(task=None, *, workspace=None, files=None, settings=None, observe=None, image_format=None,
         format=None, quality=None, limits=True, record=None, view=False, warm=False, url=None, token=None,
         grace_ms=None, raise_errors=True, client=None, render_mode=None):
    """An Env on a task ('suite/id') or on a workspace (a folder on the server's machine, and/or files).

    The server is `url`/`token`, else PWP_SERVER_URL/PWP_TOKEN, else a `pwp serve` started for this process.
    observe: what reset and step return (default ['screenshot']).
    image_format: screenshots as 'numpy' (H x W x 3 uint8, the default where numpy is installed), 'pil'
    (PIL images, as PwP gives them) or 'bytes' (the PNG).
    warm: keep a second environment prepared with each reset in the background, so that the next reset
    with the same options is a hand-over (for loops that reset again and again; costs its memory).
    render_mode: 'rgb_array' (the only one; taken so that gymnasium.make can pass it)."""
    if render_mode not in (None, 'rgb_array'):
        raise ValueError(f"render_mode {render_mode!r}: pwp renders 'rgb_array' only (the screen as an array)")
    images.check_format(image_format or images.default_format())
    args = {'task': task, 'workspace': workspace, 'files': files, 'settings': settings, 'observe': observe,
            'image_format': image_format, 'format': format, 'quality': quality, 'limits': limits, 'record': record,
            'view': view, 'warm': warm, 'grace_ms': grace_ms, 'raise_errors': raise_errors}
    params = {'limits': bool(limits)}
    for key, value in (('task', task), ('workspace', workspace), ('files', files), ('settings', settings),
                       ('observe', list(observe) if observe else None), ('format', format), ('quality', quality),
                       ('record', os.path.abspath(record) if record else None), ('view', view or None),
                       ('warm', warm or None)):
        if value is not None:
            params[key] = value
    own = client is None
    client = client or connect(url, token, grace_ms)
    try:
        made = client.call('env.make', params)
    except Exception:
        if own:
            client.close()
        raise
    # The spec makes the Env again on the same server; its token stays out of the spec (printed
    # with it): connect() remembers the tokens of the servers this process has used.
    spec_kwargs = {**args, 'url': client.url}
    return Env(client, made, image_format=image_format, owns_client=own, raise_errors=raise_errors, spec_kwargs=spec_kwargs)


def _spec_id(task_name):
    """A gymnasium id for the Env: the task's name ('suite/id' reads as gymnasium's namespace/name)."""
    return re.sub(r'[^\w.:/-]', '_', task_name) if task_name else 'pwp/workspace'


def attach(url=None, token=None, episode_id=None, image_format=None, raise_errors=True):
    """The episode `pwp run --agent-cmd` hands an outside agent (PWP_SERVER_URL, PWP_TOKEN, PWP_EPISODE_ID).
    It is already reset; the run grades it once the agent exits (or sends done)."""
    episode_id = episode_id or os.environ.get('PWP_EPISODE_ID')
    if not episode_id:
        raise ValueError('no episode: PWP_EPISODE_ID is set by pwp run/bench --agent-cmd')
    client = connect(url, token)
    try:
        made = client.call('env.describe', {'episodeId': episode_id})
    except Exception:
        client.close()
        raise
    return Env(client, made, image_format=image_format, attached_episode=episode_id, raise_errors=raise_errors)
