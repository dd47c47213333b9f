"""A WebSocket client (RFC 6455) on the standard library: text messages over one connection, which
is all the Env server speaks. No third-party package, so `pip install ./python` needs no index."""
import base64
import hashlib
import os
import socket
import ssl
import struct
from urllib.parse import urlsplit

_GUID = b'258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
_CONT, _TEXT, _BINARY, _CLOSE, _PING, _PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class HandshakeError(OSError):
    """The server answered the upgrade with something other than 101; `status` is its HTTP status."""

    def __init__(self, status, reason):
        super().__init__(f'WebSocket upgrade refused: HTTP {status} {reason}')
        self.status = status


class ConnectionClosed(OSError):
    """The connection is closed (by the server, or by close())."""


class WebSocket:
    def __init__(self, url, headers=(), timeout=None):
        parts = urlsplit(url)
        if parts.scheme not in ('ws', 'wss'):
            raise ValueError(f'not a WebSocket URL (ws:// or wss://): {url}')
        port = parts.port or (443 if parts.scheme == 'wss' else 80)
        sock = socket.create_connection((parts.hostname, port), timeout=timeout)
        if parts.scheme == 'wss':
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname)
        self._sock = sock
        self._buf = bytearray()
        self._parts, self._kind = [], None  # a message's frames so far (kept across a timeout)
        self._closed = False
        try:
            self._handshake(parts, port, headers)
        except BaseException:
            sock.close()
            raise

    def _handshake(self, parts, port, headers):
        key = base64.b64encode(os.urandom(16)).decode()
        host = parts.hostname if port in (80, 443) else f'{parts.hostname}:{port}'
        target = (parts.path or '/') + (f'?{parts.query}' if parts.query else '')
        lines = [f'GET {target} HTTP/1.1', f'Host: {host}', 'Upgrade: websocket', 'Connection: Upgrade',
                 f'Sec-WebSocket-Key: {key}', 'Sec-WebSocket-Version: 13', *headers]
        self._sock.sendall(('\r\n'.join(lines) + '\r\n\r\n').encode('latin-1'))
        while b'\r\n\r\n' not in self._buf:
            self._fill(len(self._buf) + 1)
            if len(self._buf) > 65536:
                raise HandshakeError(0, 'response headers too long')
        head, _, rest = bytes(self._buf).partition(b'\r\n\r\n')
        self._buf = bytearray(rest)
        status_line, *header_lines = head.decode('latin-1').split('\r\n')
        fields = status_line.split(' ', 2)
        status = int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
        if status != 101:
            raise HandshakeError(status, fields[2] if len(fields) > 2 else '')
        got = {k.strip().lower(): v.strip() for k, _, v in (h.partition(':') for h in header_lines)}
        expected = base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest()).decode()
        if got.get('sec-websocket-accept') != expected:
            raise HandshakeError(status, 'the server did not accept the WebSocket key')

    def settimeout(self, seconds):
        self._sock.settimeout(seconds)

    def send(self, text):
        """Sends one text message."""
        self._send_frame(_TEXT, text.encode('utf-8'))

    def recv(self):
        """The next text (or binary) message; answers pings on the way. Raises socket.timeout when
        none arrives in time (the connection stays usable), ConnectionClosed when the server closes."""
        while True:
            fin, opcode, payload = self._read_frame()
            if opcode == _PING:
                self._send_frame(_PONG, payload)
            elif opcode == _PONG:
                continue
            elif opcode == _CLOSE:
                code = struct.unpack('!H', payload[:2])[0] if len(payload) >= 2 else 1005
                self._closed = True
                try:
                    self._send_frame(_CLOSE, payload[:2])
                except OSError:
                    pass
                self._sock.close()
                raise ConnectionClosed(f'closed by the server (code {code}{": " + payload[2:].decode("utf-8", "replace") if len(payload) > 2 else ""})')
            else:
                if opcode != _CONT:
                    self._kind = opcode
                self._parts.append(payload)
                if fin:
                    data, kind = b''.join(self._parts), self._kind
                    self._parts = []
                    return data.decode('utf-8') if kind == _TEXT else data

    def close(self):
        if self._closed:
            return
        self._closed = True
        try:
            self._send_frame(_CLOSE, struct.pack('!H', 1000), force=True)
        except OSError:
            pass
        self._sock.close()

    # ---- frames -------------------------------------------------------------------------------

    def _send_frame(self, opcode, payload, force=False):
        if self._closed and not force:
            raise ConnectionClosed('the connection is closed')
        n = len(payload)
        if n < 126:
            head = struct.pack('!BB', 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack('!BBH', 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack('!BBQ', 0x80 | opcode, 0x80 | 127, n)
        mask = os.urandom(4)
        self._sock.sendall(head + mask + _xor(payload, mask))

    def _read_frame(self):
        # Bytes stay in the buffer until their whole frame is there, so a timeout anywhere
        # (socket.timeout out of _fill) leaves the stream whole for the next call.
        if self._closed:
            raise ConnectionClosed('the connection is closed')
        self._fill(2)
        b0, b1 = self._buf[0], self._buf[1]
        n, offset = b1 & 0x7F, 2
        if n == 126:
            self._fill(4)
            n, offset = struct.unpack('!H', self._buf[2:4])[0], 4
        elif n == 127:
            self._fill(10)
            n, offset = struct.unpack('!Q', self._buf[2:10])[0], 10
        mask = None
        if b1 & 0x80:
            self._fill(offset + 4)
            mask, offset = bytes(self._buf[offset:offset + 4]), offset + 4
        self._fill(offset + n)
        payload = bytes(self._buf[offset:offset + n])
        del self._buf[:offset + n]
        return bool(b0 & 0x80), b0 & 0x0F, _xor(payload, mask) if mask else payload

    def _fill(self, size):
        """Reads until the buffer holds `size` bytes."""
        while len(self._buf) < size:
            chunk = self._sock.recv(max(65536, size - len(self._buf)))
            if not chunk:
                self._closed = True
                raise ConnectionClosed('the server closed the connection')
            self._buf += chunk


def _xor(data, mask):
    """data XOR the repeated 4-byte mask, as one big-integer operation (fast for megabytes)."""
    n = len(data)
    if n == 0:
        return b''
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, 'big') ^ int.from_bytes(key, 'big')).to_bytes(n, 'big')
