#!/usr/bin/env python3
"""A scripted agent that solves vscode-config/rebind-shortcut ("Bind ctrl+alt+d to Duplicate
Selection") by keyboard and mouse, looking only at what a person would: the focused field and
the Set-of-Marks listing. It waits on what the screen shows, never on fixed sleeps alone.

    python3 examples/scripted_agent.py                     # its own episode (pwp serve, or PWP_SERVER_URL/PWP_TOKEN)
    pwp run vscode-config/rebind-shortcut --agent-cmd "python3 examples/scripted_agent.py"
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'python'))
import pwp  # noqa: E402


def eventually(what, probe, timeout=120.0):
    """probe() until it answers something truthy; the screen decides when, up to timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        got = probe()
        if got:
            return got
        if time.monotonic() > deadline:
            raise RuntimeError(f'gave up waiting for {what}')
        time.sleep(0.2)


def focused_matching(env, pattern):
    f = env.observe(['focused']).get('focused')
    return f if f and re.search(pattern, f"{f.get('text', '')}\n{f.get('value') or ''}", re.I) else None


def solve_rebind_shortcut(env):
    """Acts on a reset Env; returns the done step's (reward, info)."""
    env.step({'type': 'key', 'keys': 'ctrl+k ctrl+s'})
    eventually('the keybindings search box', lambda: focused_matching(env, 'search in keybindings'))
    for _ in range(3):  # keys typed while the editor is still opening can be lost: check, retype
        env.step({'type': 'type', 'text': 'Duplicate Selection'})
        try:
            eventually('the search text', lambda: (env.observe(['focused'])['focused'] or {}).get('value', '').endswith('Duplicate Selection'), 3)
            break
        except RuntimeError:
            env.step({'type': 'key', 'keys': 'ctrl+a'})

    def row():
        return next((m for m in env.marks()['marks'] if m['role'] == 'listitem' and m['text'].startswith('Duplicate Selection,')), None)

    mark = eventually('the Duplicate Selection row', row)
    # The mouse, PwP-style: one xdotool string, && and all.
    x, y = mark['point']['x'], mark['point']['y']
    env.step(f'xdotool mousemove {x} {y} && xdotool click 1')
    env.step({'type': 'key', 'keys': 'enter'})
    eventually('the key combination prompt', lambda: focused_matching(env, 'Press desired key combination'))
    env.step({'type': 'key', 'keys': 'ctrl+alt+d'})
    env.step({'type': 'key', 'keys': 'enter'})
    eventually('the keybinding saved', lambda: any(
        k.get('key') == 'ctrl+alt+d' and k.get('command') == 'editor.action.duplicateSelection'
        for k in env.query('ide.keybindings.get')['keybindings']))
    _, reward, _, _, info = env.step({'type': 'done'})
    return reward, info


def main():
    if os.environ.get('PWP_EPISODE_ID'):
        env = pwp.attach()  # handed over by pwp run/bench --agent-cmd: already reset
    else:
        env = pwp.make('vscode-config/rebind-shortcut')
    with env:
        env.reset()
        reward, info = solve_rebind_shortcut(env)
        print(f'reward {reward}: {(info.get("evaluation") or {}).get("summary", "")}')


if __name__ == '__main__':
    main()
