#!/usr/bin/env python3
"""A model agent over the openai Python package: each turn it sends the task, the Set-of-Marks
listing and the screenshot, and the model answers with calls of one tool, `act`, whose
parameters are the Env's action space as published by the server (one object JSON Schema).
Every call becomes one env.step; a refused action goes back to the model as the tool's result.

    OPENAI_API_KEY=... python3 examples/openai_agent.py                      # model from PWP_MODEL (gpt-4.1)
    pwp run vscode-config/rebind-shortcut --agent-cmd "python3 examples/openai_agent.py"

OPENAI_BASE_URL points it at any OpenAI-compatible server.
"""
import base64
import io
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'python'))
import pwp  # noqa: E402
from openai import OpenAI  # noqa: E402

SYSTEM = ('You operate a VS Code IDE on a 1280x800 screen by calling the act tool, one action per call. '
          'Elements on screen are listed as [id] [role] [text]; click one with {"type": "click", "mark": id}. '
          'When the task is complete, call act with {"type": "done"}.')


def screenshot_url(obs):
    img = obs.get('screenshot')
    if img is None:
        return None
    buf = io.BytesIO()
    img.save(buf, format='PNG')
    return 'data:image/png;base64,' + base64.b64encode(buf.getvalue()).decode()


def user_turn(env, obs, note=''):
    marks = env.marks()['text']
    content = [{'type': 'text', 'text': f'{note}Task: {env.instruction}\n\nOn screen:\n{marks}'}]
    url = screenshot_url(obs)
    if url:
        content.append({'type': 'image_url', 'image_url': {'url': url}})
    return {'role': 'user', 'content': content}


def run(env, client, model, max_turns=30):
    obs, _ = env.reset()
    tools = [{'type': 'function', 'function': {'name': 'act', 'description': 'One action in the IDE', 'parameters': env.action_space.schema}}]
    messages = [{'role': 'system', 'content': SYSTEM}, user_turn(env, obs)]
    for _ in range(max_turns):
        reply = client.chat.completions.create(model=model, messages=messages, tools=tools).choices[0].message
        messages.append({'role': 'assistant', 'content': reply.content, 'tool_calls': [c.model_dump() for c in reply.tool_calls or []]})
        if not reply.tool_calls:
            messages.append({'role': 'user', 'content': 'Call the act tool (with {"type": "done"} when finished).'})
            continue
        for call in reply.tool_calls:
            try:
                action = json.loads(call.function.arguments)
                obs, reward, terminated, truncated, info = env.step(action)
                result = {'ok': True, 'reward': reward, 'terminated': terminated, 'truncated': truncated}
                if 'toolResult' in info:
                    result['toolResult'] = info['toolResult']
            except (ValueError, pwp.PwpError) as e:  # malformed JSON or a refused action: tell the model
                terminated = truncated = False
                result = {'ok': False, 'error': f'{type(e).__name__}: {e}'}
            messages.append({'role': 'tool', 'tool_call_id': call.id, 'content': json.dumps(result)})
            if terminated or truncated:
                return reward
        messages.append(user_turn(env, obs))
    return env.reward()


def main():
    env = pwp.attach(image_format='pil') if os.environ.get('PWP_EPISODE_ID') else pwp.make(os.environ.get('PWP_TASK', 'vscode-config/rebind-shortcut'), image_format='pil')
    with env:
        reward = run(env, OpenAI(), os.environ.get('PWP_MODEL', 'gpt-4.1'))
        print(f'reward {reward}')


if __name__ == '__main__':
    main()
