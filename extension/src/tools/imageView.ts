// Image sizes (PNG, GIF, JPEG headers) and zoomed views of a preview, rendered by the headless
// browser (crop and scale without a native image library in the extension host).
import type { HeadlessBrowser } from './headlessBrowser';

export function imageSize(buf: Buffer): { width: number; height: number; mimeType: string } | undefined {
  if (buf.length > 24 && buf.readUInt32BE(0) === 0x89504e47) return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), mimeType: 'image/png' };
  if (buf.length > 10 && buf.subarray(0, 3).toString('latin1') === 'GIF') return { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8), mimeType: 'image/gif' };
  if (buf.length > 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    let i = 2;
    while (i + 9 < buf.length) {
      if (buf[i] !== 0xff) { i++; continue; }
      const marker = buf[i + 1];
      const len = buf.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { width: buf.readUInt16BE(i + 7), height: buf.readUInt16BE(i + 5), mimeType: 'image/jpeg' };
      }
      i += 2 + len;
    }
  }
  if (buf.length > 30 && buf.subarray(0, 4).toString('latin1') === 'RIFF' && buf.subarray(8, 12).toString('latin1') === 'WEBP') {
    const kind = buf.subarray(12, 16).toString('latin1');
    if (kind === 'VP8X') return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3), mimeType: 'image/webp' };
    if (kind === 'VP8 ') return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff, mimeType: 'image/webp' };
  }
  return undefined;
}

/** Which part of the source image a view at `zoom` centred on (cx, cy) shows, in source pixels. */
export function viewRegion(w: number, h: number, zoom: number, cx: number, cy: number): { x: number; y: number; width: number; height: number } {
  if (zoom <= 1) return { x: 0, y: 0, width: w, height: h };
  const rw = w / zoom;
  const rh = h / zoom;
  const x = Math.min(Math.max(0, cx * w - rw / 2), w - rw);
  const y = Math.min(Math.max(0, cy * h - rh / 2), h - rh);
  return { x, y, width: rw, height: rh };
}

/**
 * Renders a region of an image scaled to outWidth x outHeight (PNG). The image is drawn
 * scaled and offset in a page whose viewport is the output size.
 */
export async function renderRegion(
  browser: HeadlessBrowser, img: Buffer, mimeType: string, region: { x: number; y: number; width: number; height: number },
  outWidth: number, outHeight: number, srcWidth: number, srcHeight: number,
): Promise<Buffer> {
  const sx = outWidth / region.width;
  const sy = outHeight / region.height;
  return browser.withPage({ width: Math.max(1, Math.round(outWidth)), height: Math.max(1, Math.round(outHeight)) }, async (page) => {
    await page.setContent(`<!doctype html><html><body style="margin:0;overflow:hidden;background:white">
      <img id="i" style="position:absolute;left:${-region.x * sx}px;top:${-region.y * sy}px;width:${srcWidth * sx}px;height:${srcHeight * sy}px" src="data:${mimeType};base64,${img.toString('base64')}"></body></html>`);
    await page.evaluate(`new Promise((r) => { const i = document.getElementById('i'); if (i.complete) r(0); else { i.onload = () => r(0); i.onerror = () => r(0); } })`);
    return page.screenshot();
  }, { retryIfBrowserDies: true });
}
