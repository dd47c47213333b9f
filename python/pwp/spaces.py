"""The Env's action and observation spaces as the server publishes them (JSON Schema), as
gymnasium spaces when gymnasium is importable."""
try:
    import gymnasium
    _Space = gymnasium.spaces.Space
except ImportError:  # optional
    gymnasium = None
    _Space = object


class JsonSchemaSpace(_Space):
    """A space described by a JSON Schema. `contains` checks the top level (kind and fields);
    the server checks every detail and answers InvalidParamsError naming the field."""

    def __init__(self, schema, accepts_strings=False):
        if gymnasium is not None:
            super().__init__(shape=None, dtype=None)
        self.schema = schema
        self.accepts_strings = accepts_strings

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
        raise NotImplementedError('a JSON Schema space is not sampled: write the action (see .schema)')

    def __repr__(self):
        return f'JsonSchemaSpace({sorted(self.schema.get("properties", {}))})'
