"""pwp for Python: gymnasium-style Envs on a real VS Code IDE, served by `pwp serve`.

    import pwp
    env = pwp.make('vscode-config/rebind-shortcut')
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step("xdotool key ctrl+k ctrl+s")
"""
from . import errors
from .compat import PwP, PwPBench
from .client import Client
from .env import Env, attach, make
from .errors import (
    ActionFailedError, EnvironmentLostError, InvalidParamsError, LimitExceededError, NotAvailableError, PwpError, TargetClosedError,
    TimeoutError, UnauthorizedError,
)
from .server import connect

__all__ = [
    'make', 'attach', 'connect', 'Env', 'Client', 'PwP', 'PwPBench', 'errors', 'PwpError', 'InvalidParamsError',
    'NotAvailableError', 'ActionFailedError', 'EnvironmentLostError', 'LimitExceededError', 'TargetClosedError', 'TimeoutError',
    'UnauthorizedError',
]
__version__ = '0.1.0'
