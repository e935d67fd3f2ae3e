// Svelte action for modal surfaces (dialogs, menus): takes focus when it appears, keeps Tab and
// Shift+Tab inside, and gives focus back to what had it when it goes away. When that element is
// gone by then (its row was removed), focus goes to `fallback` so it never drops to <body>.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.closest('[inert]') && el.getClientRects().length > 0,
  );
}

export interface FocusTrapOptions {
  /** Focused first; otherwise the first [data-autofocus], then the first focusable, then the node. */
  initial?: HTMLElement | null;
  /** Where focus goes on close when the element that opened the surface is no longer there. */
  fallback?: () => HTMLElement | null | undefined;
  /** Menus close when focus leaves them instead of pulling it back (default: pull it back). */
  contain?: boolean;
}

export function focusTrap(node: HTMLElement, options: FocusTrapOptions = {}): { destroy: () => void } {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const first = options.initial ?? node.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(node)[0] ?? node;
  // After the surface is laid out, so the element can take focus.
  queueMicrotask(() => first.focus());

  function onkeydown(e: KeyboardEvent): void {
    if (e.key !== 'Tab') return;
    const list = focusables(node);
    if (list.length === 0) {
      e.preventDefault();
      node.focus();
      return;
    }
    const head = list[0]!;
    const last = list[list.length - 1]!;
    const active = document.activeElement;
    if (e.shiftKey && (active === head || !node.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !node.contains(active))) {
      e.preventDefault();
      head.focus();
    }
  }
  // Focus that escapes by a click outside or a programmatic jump is brought back.
  function onfocusin(e: FocusEvent): void {
    if (e.target instanceof Node && !node.contains(e.target)) first.focus();
  }
  const contain = options.contain ?? true;
  node.addEventListener('keydown', onkeydown);
  if (contain) document.addEventListener('focusin', onfocusin);

  return {
    destroy() {
      node.removeEventListener('keydown', onkeydown);
      document.removeEventListener('focusin', onfocusin);
      // Only when focus would otherwise be lost: a menu closed by clicking elsewhere leaves it there.
      queueMicrotask(() => {
        const now = document.activeElement;
        if (now && now !== document.body && now.isConnected && !node.contains(now)) return;
        const target = opener && opener !== document.body && opener.isConnected ? opener : options.fallback?.();
        (target ?? firstInMain())?.focus();
      });
    },
  };
}

/** The current screen's first focusable element: where focus goes when nothing better is known. */
export function firstInMain(): HTMLElement | undefined {
  const main = document.querySelector<HTMLElement>('main');
  return main ? (main.querySelector<HTMLElement>('[role=grid]') ?? focusables(main)[0]) : undefined;
}
