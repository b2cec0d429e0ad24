import { useEffect } from 'react';

const PRODUCT_NAME = 'Boomgate';

/** Names the browser tab after the screen, so history and screen readers can tell pages apart. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
    return () => {
      document.title = PRODUCT_NAME;
    };
  }, [title]);
}
