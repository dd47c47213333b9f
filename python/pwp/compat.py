"""PwP-style names on pwp: PwPBench lists a suite's tasks, gives an Env on one, runs an agent on it and gets its reward.

    bench = PwPBench('vscode-config')
    dataset = bench.get_dataset()          # [{'name', 'suite', 'id', 'instruction', 'limits'}, ...]
    env = bench.get_env(dataset[0])         # a pwp.Env, gymnasium-style
    result = bench.run(dataset[0], agent)   # agent(obs, info) -> action, or None when done
"""
from .env import make
from .server import connect


class PwPBench:
    def __init__(self, suite=None, *, url=None, token=None, client=None, **make_options):
        self.suite = suite
        self.client = client or connect(url, token)
        self.make_options = make_options

    def get_dataset(self):
        """The suite's tasks (every suite's when none was named)."""
        params = {'selector': self.suite} if self.suite else {}
        return self.client.call('tasks.list', params)['tasks']

    def get_env(self, row, **make_options):
        """An Env on a task (a row of get_dataset, or 'suite/id'); reset() starts it."""
        name = row['name'] if isinstance(row, dict) else row
        return make(name, client=self.client, **{**self.make_options, **make_options})

    def run(self, row, agent, seed=None):
        """Runs agent(observation, info) -> action (None ends it with done) on the task until the episode ends;
        the done step is graded in a verifier container. Returns {task, reward, steps, terminated, truncated, evaluation}."""
        env = self.get_env(row, raise_errors=False)
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
