import { useEffect, useState } from 'react';

import { Spinner } from '@/components/ui/spinner';
import { useTranslation } from '@/lib/i18n';

/**
 * `text` as a QR code (an SVG image), drawn in the browser with `qrcode`, which is loaded only when
 * a QR code is first shown.
 */
export function QrCodeImage({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation('shared');
  const [result, setResult] = useState<{ text: string; svg: string | null } | null>(null);

  useEffect(() => {
    let isCurrent = true;
    import('qrcode')
      .then(({ toString }) => toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then(
        (svg) => {
          if (isCurrent) setResult({ text, svg });
        },
        () => {
          if (isCurrent) setResult({ text, svg: null });
        },
      );
    return () => {
      isCurrent = false;
    };
  }, [text]);

  if (result?.text !== text) {
    return (
      <div role="status" className="flex size-48 items-center justify-center rounded-lg border">
        <Spinner className="size-5" />
        <span className="sr-only">{t('qrCode.drawing')}</span>
      </div>
    );
  }
  if (result.svg === null) {
    return <p className="text-sm text-destructive">{t('qrCode.failed')}</p>;
  }
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(result.svg)}`}
      alt={label}
      data-qr-text={text}
      className="size-48 rounded-lg border bg-white p-1"
    />
  );
}
