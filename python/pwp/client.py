"""JSON-RPC 2.0 over one WebSocket to pwp's Env server (the standard library only).
Calls are answered in any order; a lock makes one client safe to share between threads."""
import itertools
import json
import os
import socket
import threading

from .errors import TargetClosedError, TimeoutError, UnauthorizedError, error_from_wire
from .wsclient import HandshakeError, WebSocket

DEFAULT_TIMEOUT = 30 * 60  # seconds: a reset builds or starts an IDE, a reward runs a verifier


class Client:
    """A connection to an Env server. `url` and `token` default to PWP_SERVER_URL and PWP_TOKEN."""

    def __init__(self, url=None, token=None, grace_ms=None, timeout=DEFAULT_TIMEOUT):
        self.url = url or os.environ.get('PWP_SERVER_URL')
        self.token = token or os.environ.get('PWP_TOKEN')
        if not self.url or not self.token:
            raise ValueError('no Env server: pass url= and token= or set PWP_SERVER_URL and PWP_TOKEN (pwp serve prints both)')
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._answers = {}
        try:
            self._ws = WebSocket(self.url, headers=[f'Authorization: Bearer {self.token}'], timeout=timeout)
        except HandshakeError as e:
            if e.status == 401:
                raise UnauthorizedError(f'the Env server at {self.url} refused the token') from None
            raise TargetClosedError(f'no Env server at {self.url}: {e}') from None
        except OSError as e:
            raise TargetClosedError(f'cannot connect to the Env server at {self.url}: {e}') from None
        self.hello = self.call('server.hello', {} if grace_ms is None else {'graceMs': int(grace_ms)})

    def call(self, method, params=None, timeout=None):
        """Calls a method; raises the protocol's typed exception when it fails."""
        msg_id = next(self._ids)
        with self._lock:
            try:
                self._ws.settimeout(timeout or self.timeout)
                self._ws.send(json.dumps({'jsonrpc': '2.0', 'id': msg_id, 'method': method, 'params': params or {}}))
                while msg_id not in self._answers:
                    raw = self._ws.recv()
                    msg = json.loads(raw)
                    self._answers[msg.get('id')] = msg
            except socket.timeout:
                raise TimeoutError(f'{method} did not answer within {timeout or self.timeout} s') from None
            except OSError as e:
                raise TargetClosedError(f'the Env server connection closed during {method}: {e}') from None
            answer = self._answers.pop(msg_id)
        if 'error' in answer:
            raise error_from_wire(answer['error'])
        return answer.get('result')

    def close(self):
        try:
            self._ws.close()
        except Exception:  # closing a dead connection is not an error
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
