"""The package's build backend (PEP 517, with PEP 660's editable installs), on the standard library
alone: `pip install ./python` needs no setuptools, no wheel and no package index, whichever
python3 runs it.

A wheel built inside a pwp checkout records where that checkout's `bin/pwp` is (pwp/_checkout.py),
so that pwp.make can start an Env server without the CLI on PATH; PWP_CLI overrides it.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

NAME = 'pwp'
SUMMARY = "Python client of pwp's Env server: gymnasium-style Envs on a real VS Code IDE, PwP-style names"
REQUIRES_PYTHON = '>=3.9'
# No dependency: the client speaks WebSocket with the standard library. These are used when there.
EXTRAS = {'images': ['numpy', 'Pillow'], 'gym': ['gymnasium', 'numpy'], 'examples': ['openai'], 'test': ['pytest', 'numpy', 'Pillow']}
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ('pyproject.toml', 'pwp_build.py', 'README.md')
EPOCH = (1980, 1, 1, 0, 0, 0)  # fixed times: the same sources give the same wheel


def _version():
    with open(os.path.join(HERE, NAME, '__init__.py'), encoding='utf-8') as f:
        return re.search(r"^__version__ = '([^']+)'", f.read(), re.M).group(1)


def _package_files():
    """(path inside the archive, file on disk) of the package's modules."""
    pkg = os.path.join(HERE, NAME)
    return sorted((f'{NAME}/{f}', os.path.join(pkg, f)) for f in os.listdir(pkg) if f.endswith('.py') and f != '_checkout.py')


def _checkout_cli():
    """This checkout's bin/pwp, when the sources are in a pwp checkout (not an unpacked sdist)."""
    root = os.path.dirname(HERE)
    cli = os.path.join(root, 'bin', 'pwp')
    try:
        with open(os.path.join(root, 'package.json'), encoding='utf-8') as f:
            ours = re.search(r'"name"\s*:\s*"pwp"', f.read()) is not None
    except OSError:
        return None
    return cli if ours and os.access(cli, os.X_OK) else None


def _metadata():
    with open(os.path.join(HERE, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    lines = ['Metadata-Version: 2.1', f'Name: {NAME}', f'Version: {_version()}', f'Summary: {SUMMARY}', 'License: MIT',
             f'Requires-Python: {REQUIRES_PYTHON}']
    for extra, reqs in EXTRAS.items():
        lines.append(f'Provides-Extra: {extra}')
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in reqs]
    lines.append('Description-Content-Type: text/markdown')
    return '\n'.join(lines) + '\n\n' + readme


def _dist_info():
    return f'{NAME}-{_version()}.dist-info'


def _write_wheel(wheel_directory, members):
    """A wheel of `members` ((name, bytes)...) plus its dist-info; returns its file name."""
    dist_info = _dist_info()
    members = list(members) + [
        (f'{dist_info}/METADATA', _metadata().encode()),
        (f'{dist_info}/WHEEL', b'Wheel-Version: 1.0\nGenerator: pwp_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
    ]
    record = [f'{name},sha256={_digest(data)},{len(data)}' for name, data in members] + [f'{dist_info}/RECORD,,']
    members.append((f'{dist_info}/RECORD', ('\n'.join(record) + '\n').encode()))
    filename = f'{NAME}-{_version()}-py3-none-any.whl'
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), 'w', zipfile.ZIP_DEFLATED) as whl:
        for name, data in members:
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
    return filename


def _digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()


def _read(path):
    with open(path, 'rb') as f:
        return f.read()


# ---- PEP 517 --------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = os.path.join(metadata_directory, _dist_info())
    os.makedirs(dist_info, exist_ok=True)
    with open(os.path.join(dist_info, 'METADATA'), 'w', encoding='utf-8') as f:
        f.write(_metadata())
    return _dist_info()


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    members = [(name, _read(path)) for name, path in _package_files()]
    cli = _checkout_cli()
    if cli:
        members.append((f'{NAME}/_checkout.py', f'"""Written at build time: the pwp checkout this package was built from."""\nCLI = {cli!r}\n'.encode()))
    return _write_wheel(wheel_directory, members)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # The package is imported from these sources (a .pth line), and finds bin/pwp beside them.
    return _write_wheel(wheel_directory, [(f'_{NAME}_editable.pth', (HERE + '\n').encode())])


def build_sdist(sdist_directory, config_settings=None):
    base = f'{NAME}-{_version()}'
    filename = f'{base}.tar.gz'
    files = [(name, os.path.join(HERE, name)) for name in SOURCES] + _package_files()
    with tarfile.open(os.path.join(sdist_directory, filename), 'w:gz', format=tarfile.PAX_FORMAT) as tar:
        for name, data in [(name, _read(path)) for name, path in files] + [('PKG-INFO', _metadata().encode())]:
            info = tarfile.TarInfo(f'{base}/{name}')
            info.size, info.mode, info.mtime = len(data), 0o644, 315532800
            tar.addfile(info, io.BytesIO(data))
    return filename
