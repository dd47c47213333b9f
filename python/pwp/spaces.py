"""The Env's action and observation spaces as the server publishes them (JSON Schema), as
gymnasium spaces when gymnasium is importable."""
from .gymapi import SpaceBase


class JsonSchemaSpace(SpaceBase):
    """A space described by a JSON Schema. `contains` checks the top level (kind and fields);
    the server checks every detail and answers InvalidParamsError naming the field."""

    def __init__(self, schema, accepts_strings=False, screen=(1280, 800)):
        super().__init__(shape=None, dtype=None)
        self.schema = schema
        self.accepts_strings = accepts_strings
        self.screen = screen  # (width, height): where sample() moves the pointer; the Env keeps it current

    def contains(self, x):
        if isinstance(x, str):
            return self.accepts_strings and bool(x.strip())
        if not isinstance(x, dict):
            return False
        props = self.schema.get('properties', {})
        kinds = props.get('type', {}).get('enum')
        if kinds is not None and x.get('type') not in kinds:
            return False
        if self.schema.get('additionalProperties') is False and any(k not in props for k in x):
            return False
        return all(k in x for k in self.schema.get('required', []))

    def sample(self, mask=None, probability=None):
        """A random action that changes nothing a task is graded on: the pointer moved to a random
        point of the screen (from np_random, so seed() repeats it). A useful action is written, not
        sampled: see .schema."""
        if not self.accepts_strings:
            raise NotImplementedError('an observation space is not sampled')
        width, height = self.screen
        return {'type': 'move', 'x': int(self.np_random.integers(0, width)), 'y': int(self.np_random.integers(0, height))}

    @property
    def is_np_flattenable(self):
        return False

    def __repr__(self):
        return f'JsonSchemaSpace({sorted(self.schema.get("properties", {}))})'
