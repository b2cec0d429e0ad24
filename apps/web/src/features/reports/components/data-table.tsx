import type { ReactNode } from 'react';

import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useTranslation } from '@/lib/i18n';

/** The figures behind a chart, folded away under "Show the data" unless `open`. */
export function DataTable({
  columns,
  rows,
  open = false,
  testId,
}: {
  columns: string[];
  rows: ReactNode[][];
  open?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('reports');
  const table =
    rows.length === 0 ? (
      <p className="py-4 text-sm text-muted-foreground">{t('none')}</p>
    ) : (
      <Table data-testid={testId}>
        <TableHeader>
          <TableRow>
            {columns.map((column, index) => (
              <TableHead key={column} className={index > 0 ? 'text-right' : undefined}>
                {column}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row, r) => (
            <TableRow key={r}>
              {row.map((cell, c) => (
                <TableCell key={c} className={c > 0 ? 'text-right tabular-nums' : undefined}>
                  {cell}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  if (open) return table;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer py-2 text-muted-foreground">{t('showData')}</summary>
      {table}
    </details>
  );
}
