import { inflateSync } from 'node:zlib';

/**
 * A test's reading of a PDF: its page count (the page tree's /Count, checked against the page
 * objects) and the text of each show-text operation (TJ/Tj), in order. Enough for the simple
 * documents the server writes (pdfkit, standard fonts); content streams may be Flate-compressed.
 */
export function readPdf(pdf: Buffer): { pageCount: number; texts: string[] } {
  const raw = pdf.toString('latin1');
  if (!raw.startsWith('%PDF-')) throw new Error('not a PDF: no %PDF- header');
  if (!raw.trimEnd().endsWith('%%EOF')) throw new Error('not a PDF: no %%EOF trailer');
  const counts = [...raw.matchAll(/\/Type \/Pages\b[^>]*?\/Count (\d+)/g)].map((m) => Number(m[1]));
  const pages = raw.match(/\/Type \/Page(?!s)\b/g)?.length ?? 0;
  const pageCount = Math.max(0, ...counts);
  if (pageCount !== pages) throw new Error(`page tree says ${pageCount} pages, ${pages} found`);

  const streams: string[] = [];
  for (const m of raw.matchAll(/<<([^]*?)>>\s*stream\r?\n/g)) {
    const length = Number(/\/Length (\d+)/.exec(m[1]!)?.[1]);
    const start = m.index + m[0].length;
    const body = pdf.subarray(start, start + length);
    streams.push((/\/FlateDecode/.test(m[1]!) ? inflateSync(body) : body).toString('latin1'));
  }
  const decodeHex = (hex: string) => Buffer.from(hex, 'hex').toString('latin1');
  const texts: string[] = [];
  for (const content of streams) {
    for (const m of content.matchAll(
      /\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g,
    )) {
      if (m[1] !== undefined) {
        const parts = [...m[1].matchAll(/<([0-9a-fA-F]*)>|\(((?:\\.|[^\\)])*)\)/g)];
        texts.push(parts.map((p) => (p[1] !== undefined ? decodeHex(p[1]) : p[2])).join(''));
      } else if (m[2] !== undefined) texts.push(decodeHex(m[2]));
      else texts.push(m[3]!);
    }
  }
  return { pageCount, texts };
}
