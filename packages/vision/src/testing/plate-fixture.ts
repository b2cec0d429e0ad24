/** Synthetic number-plate photos (sharp + SVG text): SA province formats and SADC plates. */
import sharp from 'sharp';

export type PlateStyle = { background: string; text: string; province?: string };

export const SA_PLATES: Array<{ display: string; plate: string; style: PlateStyle }> = [
  {
    display: 'KP 35 XK GP',
    plate: 'KP35XKGP',
    style: { background: '#f8f8f2', text: '#111', province: 'GAUTENG' },
  },
  {
    display: 'CA 123-456',
    plate: 'CA123456',
    style: { background: '#f8f8f2', text: '#111', province: 'WESTERN CAPE' },
  },
  {
    display: 'ND 482-197',
    plate: 'ND482197',
    style: { background: '#f8f8f2', text: '#111', province: 'KWAZULU-NATAL' },
  },
  {
    display: 'BC 12 DF ZN',
    plate: 'BC12DFZN',
    style: { background: '#f8f8f2', text: '#111', province: 'KWAZULU-NATAL' },
  },
  {
    display: 'BCD 123 FS',
    plate: 'BCD123FS',
    style: { background: '#f8f8f2', text: '#111', province: 'FREE STATE' },
  },
  {
    display: 'HJK 274 L',
    plate: 'HJK274L',
    style: { background: '#f4e04d', text: '#111', province: 'LIMPOPO' },
  },
  {
    display: 'TRW 718 MP',
    plate: 'TRW718MP',
    style: { background: '#f8f8f2', text: '#111', province: 'MPUMALANGA' },
  },
  {
    display: 'GFX 905 NW',
    plate: 'GFX905NW',
    style: { background: '#f4e04d', text: '#111', province: 'NORTH WEST' },
  },
  {
    display: 'CVB 361 NC',
    plate: 'CVB361NC',
    style: { background: '#f8f8f2', text: '#111', province: 'NORTHERN CAPE' },
  },
  {
    display: 'DFG 543 EC',
    plate: 'DFG543EC',
    style: { background: '#f8f8f2', text: '#111', province: 'EASTERN CAPE' },
  },
];

export const SADC_PLATES: Array<{ display: string; plate: string; style: PlateStyle }> = [
  { display: 'B 123 BCD', plate: 'B123BCD', style: { background: '#f4e04d', text: '#111' } },
  { display: 'N 12345 W', plate: 'N12345W', style: { background: '#f4e04d', text: '#111' } },
  { display: 'AED 1733', plate: 'AED1733', style: { background: '#f8f8f2', text: '#b00' } },
];

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A 520x113-proportioned plate, bold sans text, optional province strip. */
export function plateSvg(display: string, style: PlateStyle, width = 520): string {
  const height = Math.round(width * 0.2173);
  const fontSize = Math.round(height * 0.62);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect x="2" y="2" width="${width - 4}" height="${height - 4}" rx="8" fill="${style.background}" stroke="#222" stroke-width="4"/>
  <text x="50%" y="${Math.round(height * 0.72)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${fontSize}" fill="${style.text}">${escapeXml(display)}</text>
  ${style.province ? `<text x="50%" y="${height - 8}" text-anchor="middle" font-family="DejaVu Sans" font-size="${Math.round(height * 0.11)}" fill="${style.text}">${escapeXml(style.province)}</text>` : ''}
</svg>`;
}

/** The plate on a car-ish scene: rotated, blurred, noisy, JPEG. */
export async function renderPlatePhoto(
  display: string,
  style: PlateStyle,
  {
    width = 1280,
    height = 720,
    plateWidth = 420,
    rotateDegrees = 3,
    blurSigma = 0.8,
    noise = 12,
    seed = 3,
  } = {},
): Promise<Buffer> {
  const plate = await sharp(Buffer.from(plateSvg(display, style, plateWidth)))
    .rotate(rotateDegrees, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  const meta = await sharp(plate).metadata();
  const grain = Buffer.alloc(width * height * 3);
  let s = seed;
  for (let i = 0; i < grain.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    grain[i] = 90 + (s % (2 * noise + 1));
  }
  const body = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="${width * 0.15}" y="${height * 0.3}" width="${width * 0.7}" height="${height * 0.55}" rx="40" fill="#3b4a5a" opacity="0.85"/>
    <rect x="${width * 0.22}" y="${height * 0.36}" width="${width * 0.56}" height="${height * 0.16}" rx="10" fill="#9fb3c8" opacity="0.7"/>
  </svg>`;
  return sharp(grain, { raw: { width, height, channels: 3 } })
    .composite([
      { input: Buffer.from(body) },
      {
        input: plate,
        left: Math.round(width / 2 - meta.width / 2),
        top: Math.round(height * 0.68 - meta.height / 2),
      },
    ])
    .blur(blurSigma)
    .jpeg({ quality: 78 })
    .toBuffer();
}

/**
 * The plate seen from the side: an affine view `[a, b, c, d]` of the flat plate (`a` < 1 foreshortens
 * it, `c` shears it vertically as a plate turned away from the camera does), on a plain 1280x720 scene.
 */
export async function renderPlateView(
  display: string,
  style: PlateStyle,
  matrix: [number, number, number, number],
  { plateWidth = 420, blurSigma = 0.7, jpegQuality = 80 } = {},
): Promise<Buffer> {
  const plate = await sharp(Buffer.from(plateSvg(display, style, plateWidth)))
    .affine(matrix, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  const meta = await sharp(plate).metadata();
  return sharp({ create: { width: 1280, height: 720, channels: 3, background: '#556070' } })
    .composite([
      {
        input: plate,
        left: Math.round(640 - meta.width / 2),
        top: Math.round(480 - meta.height / 2),
      },
    ])
    .blur(blurSigma)
    .jpeg({ quality: jpegQuality })
    .toBuffer();
}

/**
 * The plate alone, filling the frame edge to edge (a camera's plate crop, or a photo taken close
 * up): the case where the detector sees each character group as a separate box.
 */
export async function renderTightPlateCrop(
  display: string,
  style: PlateStyle,
  { width = 600, blurSigma = 0.6, jpegQuality = 85 } = {},
): Promise<Buffer> {
  return sharp(Buffer.from(plateSvg(display, style, width)))
    .flatten({ background: style.background })
    .blur(blurSigma)
    .jpeg({ quality: jpegQuality })
    .toBuffer();
}

/** A square two-row plate (trailers, motorcycles, imported vehicles): `['KP 35', 'XK GP']`. */
export async function renderTwoRowPlate(
  rows: [string, string],
  style: PlateStyle,
  { width = 360, blurSigma = 0.6, jpegQuality = 85 } = {},
): Promise<Buffer> {
  const height = Math.round(width * 0.62);
  const fontSize = Math.round(height * 0.36);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect x="2" y="2" width="${width - 4}" height="${height - 4}" rx="8" fill="${style.background}" stroke="#222" stroke-width="4"/>
  <text x="50%" y="${Math.round(height * 0.44)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${fontSize}" fill="${style.text}">${escapeXml(rows[0])}</text>
  <text x="50%" y="${Math.round(height * 0.88)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${fontSize}" fill="${style.text}">${escapeXml(rows[1])}</text>
</svg>`;
  return sharp(Buffer.from(svg))
    .flatten({ background: style.background })
    .blur(blurSigma)
    .jpeg({ quality: jpegQuality })
    .toBuffer();
}
