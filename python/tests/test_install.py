"""The README's Python install, run as it is written, into a fresh venv with Debian's python3 and
with the python3 first on PATH when that is another interpreter (pyenv's, here), without a package
index; then the README's Python examples, run from outside the checkout with no pwp on PATH and no
server in the environment: the package must find this checkout's bin/pwp by itself."""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def readme_python_section():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as f:
        text = f.read()
    section = text[text.index('### Python\n'):]
    section = section[:section.index('\n### ', 1)]
    blocks = re.findall(r'```(\w+)\n(.*?)```', section, re.S)
    return [body for lang, body in blocks if lang == 'sh'], [body for lang, body in blocks if lang == 'python']


def interpreters():
    found = {}
    for python in ('/usr/bin/python3', shutil.which('python3')):
        if python and os.path.exists(python):
            real = subprocess.run([python, '-c', 'import sys; print(sys.executable, sys.version.split()[0])'], capture_output=True, text=True).stdout.strip()
            found.setdefault(real.split()[0] if real else python, python)
    return list(found.values())


def clean_env():
    """No server, no CLI named, no pwp on PATH, no source tree on sys.path, no package index."""
    env = {k: v for k, v in os.environ.items() if k not in ('PWP_SERVER_URL', 'PWP_TOKEN', 'PWP_CLI', 'PWP_EPISODE_ID', 'PYTHONPATH')}
    env['PATH'] = os.pathsep.join(d for d in env.get('PATH', '').split(os.pathsep) if d and not os.path.exists(os.path.join(d, 'pwp')))
    env.update(PIP_NO_INDEX='1', PIP_DISABLE_PIP_VERSION_CHECK='1', PYTHONDONTWRITEBYTECODE='1')
    return env


@pytest.fixture(scope='module', params=interpreters())
def venv(request, tmp_path_factory):
    """The README's sh block, as written, in a fresh folder: `python3` is the interpreter under test, `./python` this checkout's."""
    python, folder = request.param, tmp_path_factory.mktemp('readme')
    install, _ = readme_python_section()
    assert len(install) == 1, "the README's Python part has one sh block"
    env = clean_env()
    assert shutil.which('pwp', path=env['PATH']) is None
    script = re.sub(r'^python3 ', f'{python} ', install[0], flags=re.M).replace('./python', os.path.join(ROOT, 'python'))
    run = subprocess.run(['bash', '-euo', 'pipefail', '-c', script], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f'{script}\n{run.stdout}\n{run.stderr}'
    return {'python': str(folder / '.venv' / 'bin' / 'python'), 'folder': folder, 'env': env, 'interpreter': python}


def run_example(venv, name, code):
    (venv['folder'] / name).write_text(code)
    return subprocess.run([venv['python'], name], cwd=venv['folder'], env=venv['env'], capture_output=True, text=True, timeout=1800)


def test_the_readmes_install_puts_the_package_in_the_venv_recording_this_checkouts_cli(venv):
    where = subprocess.run([venv['python'], '-c', 'import pwp, pwp._checkout as c; print(pwp.__file__); print(c.CLI)'],
                           cwd=venv['folder'], env=venv['env'], capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    module, cli = where.stdout.split()
    assert module.startswith(str(venv['folder'] / '.venv')) and cli == os.path.join(ROOT, 'bin', 'pwp')


def test_the_readmes_python_example_runs_against_a_real_environment(venv):
    _, examples = readme_python_section()
    run = run_example(venv, 'example.py', examples[0] + '\nimport numpy\nassert isinstance(obs["screenshot"], numpy.ndarray) and type(reward) is float\n'
                      'assert isinstance(frame, numpy.ndarray) and frame.shape == obs["screenshot"].shape\n')
    assert run.returncode == 0, f'{run.stdout}\n{run.stderr}'
    assert 'Duplicate Selection' in run.stdout and re.search(r'^reward 0\.0$', run.stdout, re.M), run.stdout


def test_the_readmes_pwp_example_saves_a_pil_screenshot_and_runs_a_shell_command(venv):
    _, examples = readme_python_section()
    if subprocess.run([venv['python'], '-c', 'import PIL'], env=venv['env'], capture_output=True).returncode != 0:
        pytest.skip(f"{venv['interpreter']} has no Pillow, which PIL images need")
    run = run_example(venv, 'pil_example.py', examples[1])
    assert run.returncode == 0, f'{run.stdout}\n{run.stderr}'
    assert (venv['folder'] / 'screen.png').stat().st_size > 1000 and '.' in run.stdout.split()
