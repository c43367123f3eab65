// Generates the static images in web/public (default avatar, touch icon, share image) without any image
// library: shapes are drawn as signed-distance fields (anti-aliased) and written as PNG with zlib.
// Run: node web/scripts/make-images.mjs — the output is committed; this script is only for regenerating it.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const out = (name) => fileURLToPath(new URL(`../public/${name}`, import.meta.url));

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const INK = hex('#1A140F');
const PAPER = hex('#FAF6F2');
const SAND = hex('#E8DDD3');
const CLAY = hex('#B9A696');

/** A canvas of RGB floats with a `fill(sdf, colour, opacity)` that blends by distance-based coverage. */
function canvas(w, h, bg) {
  const px = new Float64Array(w * h * 3);
  for (let i = 0; i < w * h; i++) px.set(bg, i * 3);
  return {
    w,
    h,
    fill(sdf, colour, opacity = 1) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const d = sdf(x + 0.5, y + 0.5);
          const a = Math.min(1, Math.max(0, 0.5 - d)) * opacity;
          if (a <= 0) continue;
          const i = (y * w + x) * 3;
          for (let c = 0; c < 3; c++) px[i + c] = px[i + c] * (1 - a) + colour[c] * a;
        }
      }
    },
    png() {
      const raw = Buffer.alloc((w * 3 + 1) * h);
      for (let y = 0; y < h; y++) {
        raw[y * (w * 3 + 1)] = 0;
        for (let x = 0; x < w * 3; x++) raw[y * (w * 3 + 1) + 1 + x] = Math.round(px[y * w * 3 + x]);
      }
      return encodePng(w, h, raw);
    },
  };
}

const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function encodePng(w, h, raw) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Signed distance helpers (negative inside).
const circle = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
const ellipse = (cx, cy, rx, ry) => (x, y) => {
  const k = Math.hypot((x - cx) / rx, (y - cy) / ry);
  return (k - 1) * Math.min(rx, ry);
};
const ring = (cx, cy, r, width) => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) - width / 2;
const segment = (ax, ay, bx, by, width) => (x, y) => {
  const [px, py, dx, dy] = [x - ax, y - ay, bx - ax, by - ay];
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * t, py - dy * t) - width / 2;
};
const roundRect = (x0, y0, w, h, r) => (x, y) => {
  const qx = Math.abs(x - (x0 + w / 2)) - w / 2 + r;
  const qy = Math.abs(y - (y0 + h / 2)) - h / 2 + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const intersect = (a, b) => (x, y) => Math.max(a(x, y), b(x, y));

/** The logo mark: a speech bubble with a "Q" knocked out, scaled into a box at (ox, oy) of size s. */
function logo(c, ox, oy, s, fg, knockout) {
  const k = s / 32;
  const P = (v) => v * k;
  c.fill(circle(ox + P(16), oy + P(15.1), P(12.6)), fg);
  c.fill(segment(ox + P(22), oy + P(22), ox + P(26.2), oy + P(28.4), P(4.2)), fg);
  c.fill(ring(ox + P(16), oy + P(15), P(5.4), P(2.6)), knockout);
  c.fill(segment(ox + P(18.6), oy + P(17.8), ox + P(21.6), oy + P(20.8), P(2.6)), knockout);
}

// Default avatar: a neutral silhouette on sand.
{
  const S = 160;
  const c = canvas(S, S, SAND);
  const body = intersect(ellipse(80, 168, 56, 50), roundRect(0, 0, S, S, 0));
  c.fill(body, CLAY);
  c.fill(circle(80, 66, 30), CLAY);
  writeFileSync(out('images/user-image.png'), c.png());
}

// Touch icon: the mark on ink.
{
  const S = 180;
  const c = canvas(S, S, INK);
  logo(c, 30, 28, 120, PAPER, INK);
  writeFileSync(out('images/apple-touch-icon.png'), c.png());
}

// Default share image (1200×630): paper with an ink panel, the mark, and stacked "cards".
{
  const W = 1200;
  const H = 630;
  const c = canvas(W, H, PAPER);
  c.fill(roundRect(640, 70, 480, 490, 36), INK);
  logo(c, 760, 190, 240, PAPER, INK);
  c.fill(roundRect(80, 140, 460, 120, 24), SAND);
  c.fill(roundRect(80, 290, 460, 120, 24), SAND, 0.75);
  c.fill(roundRect(80, 440, 300, 60, 30), INK);
  for (const y of [175, 325]) {
    c.fill(roundRect(116, y, 340, 16, 8), INK, 0.8);
    c.fill(roundRect(116, y + 34, 240, 14, 7), INK, 0.35);
  }
  writeFileSync(out('images/og-default.png'), c.png());
}
