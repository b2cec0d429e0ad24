/**
 * A native <select>'s styling, matching the inputs: the phone's own large, familiar picker (gloves,
 * sunlight) where a short fixed list is chosen from.
 */
export const nativeSelectClass =
  'h-9 w-full rounded-md border border-input bg-background px-3 text-base shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 md:text-sm max-md:h-11';
