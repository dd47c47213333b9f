// How alike two images are, in [0,1], for UI and chart tasks. Both are flattened onto white
// and scaled to at most 256 px on the long side (small shifts and anti-aliasing blur away).
// The score is the overlap of their foregrounds (pixels unlike the reference's background
// colour; intersection over union) times the colour agreement over that union, so a blank
// page scores 0 however much white both share, and identical images score 1.
import sharp from 'sharp';

export interface Similarity { score: number; foregroundIoU: number; colorAgreement: number; width: number; height: number }

const SIDE = 256;
const FOREGROUND_DELTA = 24;

async function rgb(img: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(img).flatten({ background: '#ffffff' }).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

/** The most common colour (quantised), taken as the background. */
function background(px: Buffer): [number, number, number] {
  const counts = new Map<number, number>();
  for (let i = 0; i < px.length; i += 3) {
    const k = ((px[i] >> 3) << 10) | ((px[i + 1] >> 3) << 5) | (px[i + 2] >> 3);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let best = 0;
  let bestN = -1;
  for (const [k, n] of counts) if (n > bestN) { best = k; bestN = n; }
  return [((best >> 10) & 31) * 8 + 4, ((best >> 5) & 31) * 8 + 4, (best & 31) * 8 + 4];
}

export async function imageSimilarity(candidate: Buffer, reference: Buffer): Promise<Similarity> {
  const meta = await sharp(reference).metadata();
  const scale = Math.min(1, SIDE / Math.max(meta.width ?? SIDE, meta.height ?? SIDE));
  const width = Math.max(1, Math.round((meta.width ?? SIDE) * scale));
  const height = Math.max(1, Math.round((meta.height ?? SIDE) * scale));
  const [a, b] = await Promise.all([rgb(candidate, width, height), rgb(reference, width, height)]);
  const bg = background(b);
  const isFg = (px: Buffer, i: number) =>
    Math.abs(px[i] - bg[0]) > FOREGROUND_DELTA || Math.abs(px[i + 1] - bg[1]) > FOREGROUND_DELTA || Math.abs(px[i + 2] - bg[2]) > FOREGROUND_DELTA;
  let inter = 0;
  let union = 0;
  let diff = 0;
  for (let i = 0; i < a.length; i += 3) {
    const fa = isFg(a, i);
    const fb = isFg(b, i);
    if (!fa && !fb) continue;
    union++;
    if (fa && fb) inter++;
    diff += Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
  }
  // Two images of nothing but background are the same picture.
  if (union === 0) return { score: 1, foregroundIoU: 1, colorAgreement: 1, width, height };
  const foregroundIoU = inter / union;
  const colorAgreement = 1 - diff / (union * 3 * 255);
  return { score: foregroundIoU * colorAgreement, foregroundIoU, colorAgreement, width, height };
}
