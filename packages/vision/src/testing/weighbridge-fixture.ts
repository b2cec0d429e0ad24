/** A synthetic SA mine weighbridge ticket: text, and a rendered image of it (sharp + SVG). */
import sharp from 'sharp';

export type TicketOverrides = { ticketNumber?: string | null; net?: string };

export function aWeighbridgeTicketText({
  ticketNumber = 'WB-004821',
  net = '34 640 kg',
}: TicketOverrides = {}): string {
  return [
    'SAMANCOR CHROME - WEIGHBRIDGE TICKET',
    'Site: Samancor Eastern Chrome Mines',
    ...(ticketNumber ? [`Ticket No: ${ticketNumber}`] : []),
    'Vehicle Reg: KP 35 XK GP',
    'Trailer Regs: BCD 123 MP, CA 419-547',
    'Product: Chrome Ore LG6',
    'Customer: Richards Bay Bulk Terminal',
    'Transporter: Mokoena Haulage (Pty) Ltd',
    'Supplier: Tweefontein Mine',
    'Tare: 15 240 kg   Date: 2025-03-04 07:12',
    'Gross: 49 880 kg   Date: 2025-03-04 08:40',
    `Net: ${net}`,
    'Seal Numbers: SL102938, SL102939',
    'Tare Operator: J Mokoena',
    'Gross Operator: P Naidoo',
    'Driver Signature: ____________',
  ].join('\n');
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Renders the ticket as a printed slip photographed slightly skewed (JPEG). */
export async function renderWeighbridgeTicket(
  text = aWeighbridgeTicketText(),
  {
    width = 1920,
    height = 1080,
    rotateDegrees = 1,
  }: { width?: number; height?: number; rotateDegrees?: number } = {},
): Promise<Buffer> {
  const lines = text.split('\n');
  const lineHeight = 44;
  const paperWidth = 1300;
  const paperHeight = lines.length * lineHeight + 80;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${paperWidth}" height="${paperHeight}">
  <rect width="100%" height="100%" fill="#fbfaf5"/>
  ${lines
    .map(
      (l, i) =>
        `<text x="50" y="${70 + i * lineHeight}" font-family="DejaVu Sans Mono, monospace" font-size="30" fill="#1a1a1a">${escapeXml(l)}</text>`,
    )
    .join('\n')}
</svg>`;
  const paper = await sharp(Buffer.from(svg))
    .rotate(rotateDegrees, { background: '#5a5a5a' })
    .resize({ width: Math.min(width - 100, paperWidth), height: height - 40, fit: 'inside' })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#5a5a5a' } })
    .composite([{ input: paper, gravity: 'center' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}
