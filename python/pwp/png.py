"""PNG to an H x W x C uint8 numpy array with zlib and numpy alone, for interpreters without Pillow.

pwp's screenshots are 8-bit RGB PNGs written without row filters, which decode in a few
milliseconds; the other filters, grey and alpha images are decoded too (more slowly), so any
8-bit, non-interlaced PNG reads. Anything else asks for Pillow.
"""
import struct
import zlib

_SIGNATURE = b'\x89PNG\r\n\x1a\n'
_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> samples per pixel (grey, RGB, grey+alpha, RGBA)


def decode(data, np):
    """The image in `data` (PNG bytes) as a uint8 array, H x W x channels; `np` is numpy."""
    if data[:8] != _SIGNATURE:
        raise ValueError('not a PNG image')
    pos, header, idat = 8, None, []
    while pos < len(data):
        length, kind = struct.unpack('!I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b'IHDR':
            header = struct.unpack('!IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
    if header is None:
        raise ValueError('a PNG without a header')
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace:
        raise ValueError(f'PNG of bit depth {depth}, colour type {colour}, interlace {interlace}: install Pillow to read it')
    bpp = _CHANNELS[colour]
    stride = width * bpp
    rows = np.frombuffer(zlib.decompress(b''.join(idat)), dtype=np.uint8).reshape(height, stride + 1)
    filters, pixels = rows[:, 0], rows[:, 1:]
    if not filters.any():
        return pixels.reshape(height, width, bpp).copy()
    out = np.empty((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        out[y] = _unfilter(int(filters[y]), pixels[y], previous, bpp, np)
        previous = out[y]
    return out.reshape(height, width, bpp)


def _unfilter(kind, line, up, bpp, np):
    if kind == 0:
        return line
    if kind == 2:
        return line + up  # uint8 arithmetic wraps modulo 256, as the format wants
    if kind == 1:
        # Each byte adds the rebuilt byte one pixel to its left: a running sum per channel.
        return (np.cumsum(line.reshape(-1, bpp), axis=0, dtype=np.uint32) & 0xFF).astype(np.uint8).reshape(-1)
    if kind not in (3, 4):
        raise ValueError(f'unknown PNG row filter {kind}')
    # Average and Paeth depend on the byte just rebuilt: one byte at a time.
    cur, prev = bytearray(line.tobytes()), up.tobytes()
    for i in range(len(cur)):
        left = cur[i - bpp] if i >= bpp else 0
        above = prev[i]
        if kind == 3:
            cur[i] = (cur[i] + ((left + above) >> 1)) & 0xFF
        else:
            corner = prev[i - bpp] if i >= bpp else 0
            p = left + above - corner
            pa, pb, pc = abs(p - left), abs(p - above), abs(p - corner)
            cur[i] = (cur[i] + (left if pa <= pb and pa <= pc else above if pb <= pc else corner)) & 0xFF
    return np.frombuffer(bytes(cur), dtype=np.uint8)
