# Python code in a test process comes from files the verifier's code check read
# (pythonCodeCheck.ts reads the agent's .py files as parsed code). The import system would also
# load modules from a zip archive on sys.path, whatever the archive's name (zipimport), and the
# check cannot read those: so an archive inside the workspace is not imported from. A module it
# holds is then not found, and the test that needs it fails. Archives outside the workspace (the
# image's own) are imported as before. Putting the zip importer back takes sys.path_hooks or
# zipimport, which the code check flags.
# Imported by pwp_pytest.py and pwp_script.py before any code of the workspace runs.
import os
import sys
import zipimport

WORKSPACE = "/workspace"
_zipimporter = zipimport.zipimporter


def _not_in_workspace(path):
    """zipimport's path hook, for archives outside the workspace only."""
    real = os.path.realpath(os.fsdecode(path))
    if real == WORKSPACE or real.startswith(WORKSPACE + os.sep):
        # ImportError tells the import system this hook does not take the path; a folder goes on
        # to the next hook (the file finder), an archive to none.
        raise ImportError("pwp: modules are not imported from archives in the workspace", path=path)
    return _zipimporter(path)


sys.path_hooks[:] = [_not_in_workspace if h is _zipimporter else h for h in sys.path_hooks]
sys.path_importer_cache.clear()
