import PDFDocument from 'pdfkit';

import type { ReportSummary } from '@boomgate/contracts/reports';

import { type ReportCell, reportTables } from './report-tables';

const MARGIN = 48;
const ROW_HEIGHT = 14;
const FONT_SIZE = 9;

const text = (cell: ReportCell) => (cell === null ? 'n/a' : String(cell));

/**
 * The report as a PDF (the scheduled e-mail's other attachment): the same tables as the
 * workbook, one section each, on A4 pages. pdfkit's standard Helvetica reads its metrics from
 * the AFM files shipped in its package, so nothing is embedded or downloaded. Not compressed,
 * so the figures stay greppable (a week's report is a few pages).
 */
export function reportPdf(report: ReportSummary, title: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: false,
    info: { Title: title, Producer: 'Boomgate', Creator: 'Boomgate' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN;
  doc.font('Helvetica-Bold').fontSize(16).text(title);
  doc.moveDown(0.5);

  for (const table of reportTables(report)) {
    // A section heading never sits alone at the foot of a page.
    if (doc.y + 3 * ROW_HEIGHT > bottom()) doc.addPage();
    doc.moveDown(0.5);
    doc.font('Helvetica-Bold').fontSize(12).text(table.name, MARGIN);
    const columnWidth = width / table.header.length;
    const row = (cells: ReportCell[], bold: boolean) => {
      if (doc.y + ROW_HEIGHT > bottom()) doc.addPage();
      const y = doc.y;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT_SIZE);
      cells.forEach((cell, index) => {
        doc.text(text(cell), MARGIN + index * columnWidth, y, {
          width: columnWidth - 4,
          lineBreak: false,
          ellipsis: true,
        });
      });
      doc.x = MARGIN;
      doc.y = y + ROW_HEIGHT;
    };
    row(table.header, true);
    if (table.rows.length === 0) row(['None'], false);
    for (const cells of table.rows) row(cells, false);
  }
  doc.end();
  return done;
}
