# The graders that pytest runs with the agent's workspace on sys.path import the standard library
# behind the same guard (an agent's json.py or random.py must not stand in for it): one block,
# word for word, in each, so a fix to one is made to all.
import re

import pytest

# (CanItEdit's and RES-Q's graders run isolated, -I: the workspace is not on their path.)
GUARDED = ["swe-bench/test_swebench.py", "swt-bench/test_swt.py"]
BLOCK = re.compile(r"import sys\n\n_path = list\(sys.path\)\n"
                   r'sys.path\[:\] = \[p for p in sys.path if p and not p.startswith\("/workspace"\)\]\n'
                   r"(?:import [\w.]+  # noqa: E402\n)+sys.path\[:\] = _path\n")


@pytest.mark.parametrize("rel", GUARDED)
def test_imports_the_standard_library_behind_the_guard_before_anything_else(graders, rel):
    text = (graders / rel).read_text()
    m = BLOCK.search(text)
    assert m, rel + ": no guard block"
    before = text[:m.start()]
    assert all(line.startswith("#") or not line.strip() for line in before.splitlines()), rel + ": code before the guard"
    after = text[m.end():]
    stdlib_after = re.findall(r"^import (json|os|pathlib|re|shutil|subprocess|random|secrets|tempfile|fnmatch|functools)\b", after, re.M)
    assert not stdlib_after, rel + ": imported after the guard: " + ", ".join(stdlib_after)
