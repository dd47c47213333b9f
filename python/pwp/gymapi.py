"""Gymnasium's Env and Space API, from gymnasium when it is importable and from here when not, so
that code written against gymnasium (np_random, unwrapped, spec, metadata, space.seed) runs the
same either way. The stand-ins follow gymnasium's documented behaviour; they are not its code."""
try:
    import gymnasium
except ImportError:  # optional: Debian has no package of it
    gymnasium = None
try:
    import numpy as np
except ImportError:  # optional
    np = None


def np_random(seed=None):
    """(generator, seed entropy) as gymnasium seeds: a PCG64 Generator from a SeedSequence of `seed`."""
    if np is None:
        raise RuntimeError('np_random needs numpy (Debian/Ubuntu: apt-get install python3-numpy; or pip install numpy)')
    if seed is not None and not (isinstance(seed, int) and seed >= 0):
        raise ValueError(f'a seed is an int >= 0, got {seed!r}')
    sequence = np.random.SeedSequence(seed)
    return np.random.Generator(np.random.PCG64(sequence)), sequence.entropy


if gymnasium is not None:
    EnvBase = gymnasium.Env
    SpaceBase = gymnasium.spaces.Space
    EnvSpec = gymnasium.envs.registration.EnvSpec
else:
    class EnvBase:
        """What gymnasium.Env gives its subclasses: metadata, render_mode, spec, np_random seeded by reset(seed=...), unwrapped."""
        metadata = {'render_modes': []}
        render_mode = None
        spec = None
        _np_random = None
        _np_random_seed = None

        def reset(self, *, seed=None, options=None):
            if seed is not None:
                if np is None:  # recorded; the generator is made when asked for (and then needs numpy)
                    self._np_random, self._np_random_seed = None, seed
                else:
                    self._np_random, self._np_random_seed = np_random(seed)

        def close(self):
            pass

        @property
        def unwrapped(self):
            return self

        @property
        def np_random(self):
            if self._np_random is None:
                self._np_random, self._np_random_seed = np_random(self._np_random_seed)
            return self._np_random

        @np_random.setter
        def np_random(self, value):
            self._np_random, self._np_random_seed = value, -1

        @property
        def np_random_seed(self):
            if self._np_random is None:
                self._np_random, self._np_random_seed = np_random(self._np_random_seed)
            return self._np_random_seed

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()
            return False

    class SpaceBase:
        """What gymnasium.spaces.Space gives: shape, dtype, seed(), np_random, `x in space`."""

        def __init__(self, shape=None, dtype=None, seed=None):
            self._shape, self.dtype, self._np_random = shape, dtype, None
            if seed is not None:
                self.seed(seed)

        @property
        def shape(self):
            return self._shape

        @property
        def np_random(self):
            if self._np_random is None:
                self.seed()
            return self._np_random

        def seed(self, seed=None):
            self._np_random, entropy = np_random(seed)
            return entropy

        def __contains__(self, x):
            return self.contains(x)

    class EnvSpec:
        """The fields of gymnasium's EnvSpec that describe how to make the Env again."""

        def __init__(self, id, entry_point, nondeterministic=False, max_episode_steps=None, kwargs=None):
            self.id, self.entry_point, self.nondeterministic = id, entry_point, nondeterministic
            self.max_episode_steps, self.kwargs = max_episode_steps, dict(kwargs or {})

        def make(self, **kwargs):
            return self.entry_point(**{**self.kwargs, **kwargs})

        def __repr__(self):
            return f'EnvSpec(id={self.id!r}, nondeterministic={self.nondeterministic})'
