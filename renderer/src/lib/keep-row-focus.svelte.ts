// A row moved from its menu is moved in the DOM, which drops focus: for a few seconds after the
// move, focus that fell to <body> goes back to the row's menu button (or to the grid).

/** Call in a component's setup; answers the function to call with the id of the row being moved. */
export function keepRowFocus(list: () => HTMLElement | undefined, rowsChanged: () => unknown): (id: string) => void {
  let want: { id: string; until: number } | null = null;
  $effect(() => {
    void rowsChanged();
    const w = want;
    if (!w) return;
    requestAnimationFrame(() => {
      if (Date.now() > w.until) return;
      if (document.activeElement && document.activeElement !== document.body) return;
      const el = list();
      const sel = `[data-id="${CSS.escape(w.id)}"] [data-menu-button]`;
      (el?.querySelector<HTMLElement>(sel) ?? el?.querySelector<HTMLElement>('[role=grid]'))?.focus();
    });
  });
  return (id) => {
    want = { id, until: Date.now() + 3000 };
  };
}
