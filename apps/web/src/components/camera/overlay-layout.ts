import { useLayoutEffect, useRef, useState } from 'react';

import { setCameraOverlayInsets } from './camera-overlay-insets';
import type { Size } from './guide';

/** The camera overlay's measurements: the preview's size and the room its bars take. */
export function useElementSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () =>
      setSize((previous) =>
        previous.width === element.clientWidth && previous.height === element.clientHeight
          ? previous
          : { width: element.clientWidth, height: element.clientHeight },
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, size };
}

/**
 * Publishes how much of the window the title bar (top) and the controls (bottom) take, while the
 * overlay is open, so the toaster keeps toasts off them.
 */
export function useOverlayInsets() {
  const headerRef = useRef<HTMLDivElement>(null);
  const controlsRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const header = headerRef.current;
    const controls = controlsRef.current;
    if (!header || !controls) return;
    const measure = () =>
      setCameraOverlayInsets({
        top: Math.ceil(header.getBoundingClientRect().bottom),
        bottom: Math.ceil(window.innerHeight - controls.getBoundingClientRect().top),
      });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(header);
    observer.observe(controls);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      setCameraOverlayInsets(null);
    };
  }, []);
  return { headerRef, controlsRef };
}
