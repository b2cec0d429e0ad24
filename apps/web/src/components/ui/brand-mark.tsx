import { cn } from '@/lib/cn';

/** A boom barrier glyph; decorative, the product name always sits next to it. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg
      aria-hidden
      viewBox="0 0 32 32"
      className={cn('size-7 shrink-0', className)}
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect width="32" height="32" rx="6" className="fill-primary" />
      <rect x="5" y="13" width="22" height="5" rx="1" className="fill-brand" />
      <rect x="9" y="13" width="4" height="5" className="fill-primary" />
      <rect x="17" y="13" width="4" height="5" className="fill-primary" />
      <rect x="4" y="10" width="3" height="17" rx="1" className="fill-primary-foreground" />
    </svg>
  );
}
