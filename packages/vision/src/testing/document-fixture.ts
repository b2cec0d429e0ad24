/** Synthetic document photos: a passport data page with a TD3 MRZ, and cards carrying a PDF417. */
import sharp from 'sharp';

import { makePhotoLike, renderPdf417 } from './barcode-fixture';

export const ICAO_TD3 = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * Damage to the printed MRZ: a page-coloured patch over characters `from`..`to` (0-based) of one
 * line, covering the top `coverTop` fraction of the glyphs (scratched or worn print).
 */
export type MrzDamage = { line: number; from: number; to: number; coverTop?: number };

/** A passport data page (1250x880) photographed into a 1920x1080 frame. */
export async function renderPassportPhoto(
  mrz: string[] = ICAO_TD3,
  {
    rotateDegrees = 1,
    damage = [],
    viz = { surname: 'ERIKSSON', givenNames: 'ANNA MARIA' },
  }: {
    rotateDegrees?: number;
    damage?: MrzDamage[];
    viz?: { surname: string; givenNames: string };
  } = {},
): Promise<Buffer> {
  const w = 1250;
  const h = 880;
  const charWidth = (w - 100) / (mrz[0]?.length ?? 44);
  const patches = damage
    .map((d) => {
      const baseline = h - 120 + d.line * 62;
      const capHeight = 34;
      const height = capHeight * (d.coverTop ?? 0.55);
      return `<rect x="${50 + d.from * charWidth}" y="${baseline - capHeight - 2}" width="${(d.to - d.from + 1) * charWidth}" height="${height + 2}" fill="#efe9dc"/>`;
    })
    .join('\n');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
  <rect width="100%" height="100%" rx="20" fill="#efe9dc"/>
  <text x="60" y="80" font-family="DejaVu Sans" font-weight="bold" font-size="40" fill="#23395d">PASSPORT / PASPOORT</text>
  <rect x="60" y="130" width="300" height="380" fill="#b9b2a4"/>
  <text x="420" y="170" font-family="DejaVu Sans" font-size="26" fill="#333">Surname / Van</text>
  <text x="420" y="210" font-family="DejaVu Sans" font-size="34" fill="#111">${escapeXml(viz.surname)}</text>
  <text x="420" y="270" font-family="DejaVu Sans" font-size="26" fill="#333">Given names / Voorname</text>
  <text x="420" y="310" font-family="DejaVu Sans" font-size="34" fill="#111">${escapeXml(viz.givenNames)}</text>
  ${mrz
    .map(
      (line, i) =>
        `<text x="50" y="${h - 120 + i * 62}" font-family="DejaVu Sans Mono" font-size="44" textLength="${w - 100}" lengthAdjust="spacingAndGlyphs" fill="#111">${escapeXml(line)}</text>`,
    )
    .join('\n')}
  ${patches}
</svg>`;
  const page = await sharp(Buffer.from(svg))
    .rotate(rotateDegrees, { background: '#4a4a4a' })
    .png()
    .toBuffer();
  return sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#4a4a4a' } })
    .composite([
      {
        input: await sharp(page).resize({ height: 1000, fit: 'inside' }).toBuffer(),
        gravity: 'center',
      },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A card whose back carries a PDF417 (disc, smart ID, driving licence), as a 1080p photo. */
export async function renderBarcodeCardPhoto(
  payload: string | Uint8Array,
  options: { rotateDegrees?: number } = {},
): Promise<Buffer> {
  const columns = typeof payload === 'string' ? 8 : 14;
  return makePhotoLike(await renderPdf417(payload, { columns }), {
    rotateDegrees: options.rotateDegrees ?? 2,
    symbolScale: 1.4,
  });
}
