import { useEffect, useRef } from 'react';

import { cn } from '@/lib/cn';

export type ChartData = {
  labels: string[];
  /** One array per series, as long as `labels`. */
  series: number[][];
};

type ChartKind = 'bar' | 'line';

/**
 * A Chartist chart (about 13 KB gzipped), imported when the first chart mounts so it never
 * weighs on the initial bundle. The SVG is decorative (aria-hidden): every chart comes with a
 * data table, and `label` names it for a screen reader.
 */
export function Chart({
  kind,
  data,
  label,
  className,
  horizontal = false,
}: {
  kind: ChartKind;
  data: ChartData;
  label: string;
  className?: string;
  horizontal?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const key = JSON.stringify(data);

  useEffect(() => {
    let cancelled = false;
    let detach: (() => void) | undefined;
    const draw = () =>
      Promise.all([import('chartist'), import('chartist/dist/index.css')]).then(([chartist]) => {
        const element = ref.current;
        if (cancelled || !element) return;
        const parsed = JSON.parse(key) as ChartData;
        // Every other label on narrow screens so a phone's 24 hours stay legible.
        const axisX = {
          showGrid: false,
          labelInterpolationFnc: (value: string | number, index: number) =>
            parsed.labels.length > 12 && element.clientWidth < 480 && index % 3 !== 0 ? '' : value,
        };
        const chart =
          kind === 'bar'
            ? new chartist.BarChart(element, parsed, {
                height: '100%',
                horizontalBars: horizontal,
                axisX: horizontal ? { onlyInteger: true } : axisX,
                axisY: horizontal ? { offset: 100 } : { onlyInteger: true },
              })
            : new chartist.LineChart(element, parsed, {
                height: '100%',
                showArea: true,
                axisX,
                axisY: { onlyInteger: true },
              });
        detach = () => chart.detach();
      });
    // A chart below the fold is drawn when it comes near the screen: a reports page of six
    // charts would otherwise lay them all out while the first screen is still loading.
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      void draw();
      return () => {
        cancelled = true;
        detach?.();
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void draw();
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => {
      cancelled = true;
      observer.disconnect();
      detach?.();
    };
  }, [kind, key, horizontal]);

  return (
    <figure className={cn('m-0', className)}>
      <figcaption className="sr-only">{label}</figcaption>
      <div ref={ref} aria-hidden className="h-full w-full" data-testid="chart" />
    </figure>
  );
}
