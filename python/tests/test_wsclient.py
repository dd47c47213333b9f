"""pwp's WebSocket client against a server written here, which sends what a browser-grade server
may: pings, messages split into frames, 16- and 64-bit lengths, a refusal, a close."""
import base64
import hashlib
import socket
import struct
import threading

import pytest

from pwp.wsclient import ConnectionClosed, HandshakeError, WebSocket


def serve_once(script, status=101, accept=None):
    """A one-connection server on a free port running script(conn, read_frame, send_frame); returns (url, headers seen, thread)."""
    listener = socket.socket()
    listener.bind(('127.0.0.1', 0))
    listener.listen(1)
    seen = {}

    def run():
        conn, _ = listener.accept()
        with conn, listener:
            request = b''
            while b'\r\n\r\n' not in request:
                request += conn.recv(4096)
            lines = request.decode().split('\r\n')
            seen['request'] = lines[0]
            seen.update({k.lower(): v.strip() for k, _, v in (line.partition(':') for line in lines[1:] if line)})
            if status != 101:
                conn.sendall(f'HTTP/1.1 {status} Nope\r\nContent-Length: 0\r\n\r\n'.encode())
                return
            key = accept or base64.b64encode(hashlib.sha1(seen['sec-websocket-key'].encode() + b'258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest()).decode()
            conn.sendall(f'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {key}\r\n\r\n'.encode())
            if script:
                script(conn, lambda: read_frame(conn), lambda *a: send_frame(conn, *a))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return f'ws://127.0.0.1:{listener.getsockname()[1]}/env?x=1', seen, thread


def read_exact(conn, n):
    data = b''
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        assert chunk, 'client went away'
        data += chunk
    return data


def read_frame(conn):
    b0, b1 = read_exact(conn, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack('!H', read_exact(conn, 2))[0]
    elif n == 127:
        n = struct.unpack('!Q', read_exact(conn, 8))[0]
    assert b1 & 0x80, 'a client frame must be masked'
    mask = read_exact(conn, 4)
    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(read_exact(conn, n)))
    return b0 & 0x0F, bool(b0 & 0x80), payload


def send_frame(conn, opcode, payload, fin=True):
    n = len(payload)
    length = struct.pack('!B', n) if n < 126 else struct.pack('!BH', 126, n) if n < 65536 else struct.pack('!BQ', 127, n)
    conn.sendall(struct.pack('!B', (0x80 if fin else 0) | opcode) + length + payload)


def test_text_messages_both_ways_with_pings_fragments_and_every_length_form():
    big = 'x' * 70000
    got = {}

    def script(conn, read, send):
        got['first'] = read()
        send(0x9, b'are you there')                      # a ping: answered with a pong of the same bytes
        got['pong'] = read()
        send(0x1, 'héllo '.encode(), False)              # one message in three frames
        send(0x0, b'wor', False)
        send(0x0, b'ld')
        send(0x1, ('y' * 300).encode())                  # a 16-bit length
        got['big'] = read()                               # the client sends a 64-bit length
        send(0x1, got['big'][2])                          # and gets it back
        send(0x8, struct.pack('!H', 1001) + b'bye')

    url, seen, thread = serve_once(script)
    ws = WebSocket(url, headers=['Authorization: Bearer t0ken'], timeout=10)
    ws.send('{"a": 1}')
    assert ws.recv() == 'héllo world'
    assert ws.recv() == 'y' * 300
    ws.send(big)
    assert ws.recv() == big
    with pytest.raises(ConnectionClosed, match='1001: bye'):
        ws.recv()
    thread.join(10)
    assert seen['request'] == 'GET /env?x=1 HTTP/1.1' and seen['authorization'] == 'Bearer t0ken'
    assert got['first'] == (0x1, True, b'{"a": 1}')
    assert got['pong'] == (0xA, True, b'are you there')
    assert got['big'][0] == 0x1 and len(got['big'][2]) == 70000
    with pytest.raises(ConnectionClosed):
        ws.send('after the close')


def test_a_refused_upgrade_is_a_handshake_error_with_its_status():
    url, _, thread = serve_once(None, status=401)
    with pytest.raises(HandshakeError) as e:
        WebSocket(url, timeout=10)
    assert e.value.status == 401
    thread.join(10)


def test_an_upgrade_answered_with_the_wrong_key_is_refused():
    url, _, thread = serve_once(None, accept='d3JvbmcgYWNjZXB0IGtleQ==')
    with pytest.raises(HandshakeError, match='did not accept'):
        WebSocket(url, timeout=10)
    thread.join(10)


def test_a_timeout_leaves_the_connection_usable():
    release = threading.Event()

    def script(conn, read, send):
        release.wait(10)
        send(0x1, b'late')
        read()

    url, _, thread = serve_once(script)
    ws = WebSocket(url, timeout=10)
    ws.settimeout(0.2)
    with pytest.raises(socket.timeout):
        ws.recv()
    release.set()
    ws.settimeout(10)
    assert ws.recv() == 'late'
    ws.close()
    thread.join(10)
