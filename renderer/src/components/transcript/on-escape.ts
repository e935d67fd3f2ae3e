// Escape inside a popup closes that popup only: the review underneath answers Escape by closing
// itself, so the key must stop here. (An attachment, as the popups are groups, not controls.)
import type { Attachment } from 'svelte/attachments';

export function onEscape(close: () => void): Attachment<HTMLElement> {
  return (node) => {
    const onkeydown = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      e.preventDefault();
      close();
    };
    node.addEventListener('keydown', onkeydown);
    return () => node.removeEventListener('keydown', onkeydown);
  };
}
