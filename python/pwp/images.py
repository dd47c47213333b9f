"""Screenshots from the wire (base64 PNG/JPEG) as numpy arrays, PIL images or bytes."""
import base64
import io

try:
    import numpy as np
except ImportError:  # optional
    np = None
try:
    from PIL import Image
except ImportError:  # optional
    Image = None


def default_format():
    if np is not None and Image is not None:
        return 'numpy'
    return 'pil' if Image is not None else 'bytes'


def decode(img, fmt):
    """One wire image ({format, width, height, data}) as `fmt`: 'numpy' (H x W x 3 uint8), 'pil' or 'bytes'."""
    raw = base64.b64decode(img['data'])
    if fmt == 'bytes':
        return raw
    if Image is None:
        raise RuntimeError("screenshots as images need Pillow (apt-get install python3-pil, or pip install Pillow); or use image_format='bytes'")
    pic = Image.open(io.BytesIO(raw)).convert('RGB')
    if fmt == 'pil':
        return pic
    if np is None:
        raise RuntimeError("screenshots as arrays need numpy (apt-get install python3-numpy, or pip install numpy); or use image_format='pil'")
    return np.asarray(pic)


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
