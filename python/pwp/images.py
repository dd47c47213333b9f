"""Screenshots from the wire (base64 PNG/JPEG) as numpy arrays, PIL images or bytes.

'numpy' needs numpy (PNGs decode without Pillow, pwp.png); 'pil' needs Pillow; 'bytes' needs nothing.
"""
import base64
import io

from . import png

try:
    import numpy as np
except ImportError:  # optional
    np = None
try:
    from PIL import Image
except ImportError:  # optional
    Image = None

FORMATS = ('numpy', 'pil', 'bytes')


def default_format():
    if np is not None:
        return 'numpy'
    return 'pil' if Image is not None else 'bytes'


def check_format(fmt):
    """fmt, once it is known to be decodable here; a ValueError naming what to install otherwise."""
    if fmt not in FORMATS:
        raise ValueError(f"image_format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fmt == 'pil' and Image is None:
        raise ValueError("image_format='pil' needs Pillow (Debian/Ubuntu: apt-get install python3-pil, then a venv "
                         "with --system-site-packages; or pip install Pillow)")
    if fmt == 'numpy' and np is None:
        raise ValueError("image_format='numpy' needs numpy (Debian/Ubuntu: apt-get install python3-numpy, then a venv "
                         "with --system-site-packages; or pip install numpy)")
    return fmt


def decode(img, fmt):
    """One wire image ({format, width, height, data}) as `fmt`: 'numpy' (H x W x 3 uint8), 'pil' or 'bytes'."""
    raw = base64.b64decode(img['data'])
    if fmt == 'bytes':
        return raw
    if Image is not None:
        pic = Image.open(io.BytesIO(raw)).convert('RGB')
        return pic if fmt == 'pil' else np.asarray(pic)
    if img.get('format', 'png') != 'png':
        raise ValueError(f"a {img.get('format')} screenshot as an array needs Pillow: ask for PNG (the default format) or install Pillow")
    pixels = png.decode(raw, np)
    return pixels[:, :, :3] if pixels.shape[2] >= 3 else np.repeat(pixels[:, :, :1], 3, axis=2)


def convert_observation(obs, fmt):
    """An observation from the wire with its images decoded."""
    out = dict(obs)
    for key in ('screenshot', 'marksImage'):
        if out.get(key):
            img = out[key]
            out[key] = decode(img, fmt)
            if key == 'marksImage':
                out['marks'] = out.get('marks') or {'marks': img.get('marks', []), 'text': img.get('text', '')}
    if out.get('delta') and out['delta'].get('image'):
        out['delta'] = dict(out['delta'], image=decode(out['delta']['image'], fmt))
    return out
