# The InterCode-CTF oracle: runs InterCode's solution script and prints the flag it recovers, in
# the form InterCode's checker takes. Some solutions print the flag whole (picoCTF{...}), some
# only what goes between the braces: a run whose output holds no PREFIX{...} gives its last
# non-empty line wrapped in PREFIX{...}.
# Copied by host/converters/interCodeCtf.ts to a task's oracle/oracle_flag.py; the oracle runs it
# in the workspace as `python3 oracle_flag.py INTERPRETER SCRIPT [PREFIX]` and answers its output.
import re
import subprocess
import sys

interpreter, script = sys.argv[1:3]
prefix = sys.argv[3] if len(sys.argv) > 3 else ""
run = subprocess.run([interpreter, script], capture_output=True, text=True, timeout=300)
out = run.stdout
if prefix:
    found = re.search(re.escape(prefix) + r"\{[^}\n]*\}", out)
    if found:
        print(found.group(0))
        sys.exit(0)
lines = [line.strip() for line in out.splitlines() if line.strip()]
if not lines:
    sys.stderr.write(run.stderr[-2000:])
    sys.exit(1)
print(prefix + "{" + lines[-1] + "}" if prefix else lines[-1])
