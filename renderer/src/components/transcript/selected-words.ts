// The words a DOM selection covers in the transcript list, by their data-w index.

/** Words the DOM selection covers in the transcript (only paragraphs on screen can hold one). */
export function selectedWords(): { from: number; to: number } | null {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed || sel.rangeCount === 0) return null;
  const range = sel.getRangeAt(0);
  let from = -1;
  let to = -1;
  for (const span of document.querySelectorAll<HTMLElement>('[data-testid=transcript-list] [data-w]')) {
    if (!range.intersectsNode(span)) continue;
    const i = Number(span.dataset.w);
    if (from < 0 || i < from) from = i;
    if (i > to) to = i;
  }
  return from < 0 ? null : { from, to: to + 1 };
}
