// A group of fields (a marker's name, note and colour) applies what is typed when focus leaves the
// group for something else in the window, as a single correction field does (InlineInput): another
// marker, the transcript, another screen. Moving between its own fields does not; switching to
// another app does not (the fields are still there after), nor a dialog taking focus (it asks about
// this text itself). The group going away without focus moving (Ctrl+1, another clip) is the
// panel's to answer (it saves as it is destroyed).
import type { Attachment } from 'svelte/attachments';

export function onLeave(leave: () => void): Attachment<HTMLElement> {
  return (node) => {
    const onfocusout = (e: FocusEvent): void => {
      const to = e.relatedTarget instanceof Element ? e.relatedTarget : null;
      if (to && node.contains(to)) return;
      if (!document.hasFocus() || to?.closest('dialog, [aria-modal="true"]')) return;
      // Focus also goes when the fields are taken away with the review (Chromium says so while it
      // takes them down, when no state may change): that is the panel's to answer as it goes.
      queueMicrotask(() => node.isConnected && leave());
    };
    node.addEventListener('focusout', onfocusout);
    return () => node.removeEventListener('focusout', onfocusout);
  };
}
