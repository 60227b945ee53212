import type { ReactNode } from 'react';

/**
 * A frame that scrolls what is wider than itself (a table, a graph) inside the page (ADR 0022),
 * focusable so that the keyboard scrolls it too (axe: scrollable-region-focusable).
 */
export function ScrollFrame({ className, children }: { className: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus.
    <div className={className} tabIndex={0}>
      {children}
    </div>
  );
}
