"""pwp.png, the decoder used where Pillow is not installed, against Pillow on the same images."""
import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from pwp import png


def encode(pixels, colour, filters):
    """A PNG of `pixels` (H x W x C uint8) with the given row filter per row, written here so that every filter is used."""
    height, width, bpp = pixels.shape
    raw = bytearray()
    previous = np.zeros(width * bpp, dtype=np.int32)
    for y in range(height):
        line = pixels[y].reshape(-1).astype(np.int32)
        left = np.concatenate([np.zeros(bpp, dtype=np.int32), line[:-bpp]])
        corner = np.concatenate([np.zeros(bpp, dtype=np.int32), previous[:-bpp]])
        kind = filters[y % len(filters)]
        if kind == 0:
            out = line
        elif kind == 1:
            out = line - left
        elif kind == 2:
            out = line - previous
        elif kind == 3:
            out = line - (left + previous) // 2
        else:
            p = left + previous - corner
            pa, pb, pc = abs(p - left), abs(p - previous), abs(p - corner)
            out = line - np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, previous, corner))
        raw += bytes([kind]) + (out & 0xFF).astype(np.uint8).tobytes()
        previous = line

    def chunk(kind, body):
        return struct.pack('!I', len(body)) + kind + body + struct.pack('!I', zlib.crc32(kind + body))
    header = struct.pack('!IIBBBBB', width, height, 8, colour, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(bytes(raw))) + chunk(b'IEND', b'')


@pytest.mark.parametrize('colour,bpp', [(2, 3), (6, 4), (0, 1), (4, 2)])
@pytest.mark.parametrize('levels', [256, 3])  # 3 levels: flat areas, where Paeth's predictors tie
def test_every_row_filter_decodes_as_pillow_decodes_it(colour, bpp, levels):
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, levels, size=(12, 9, bpp), dtype=np.uint8)
    data = encode(pixels, colour, filters=[0, 1, 2, 3, 4])
    ours = png.decode(data, np)
    theirs = np.asarray(Image.open(io.BytesIO(data)))
    assert np.array_equal(ours.reshape(theirs.shape), theirs)
    assert np.array_equal(ours, pixels)


def test_a_screenshot_shaped_png_of_unfiltered_rows_decodes_to_its_pixels():
    pixels = np.random.default_rng(1).integers(0, 256, size=(800, 1280, 3), dtype=np.uint8)
    data = encode(pixels, 2, filters=[0])
    assert np.array_equal(png.decode(data, np), pixels)


def test_what_it_cannot_read_asks_for_pillow():
    buf = io.BytesIO()
    Image.new('RGB', (4, 4)).save(buf, format='PNG', optimize=False)
    sixteen = bytearray(buf.getvalue())
    sixteen[24] = 16  # the header's bit depth
    with pytest.raises(ValueError, match='install Pillow'):
        png.decode(bytes(sixteen), np)
    with pytest.raises(ValueError, match='not a PNG'):
        png.decode(b'GIF89a', np)
