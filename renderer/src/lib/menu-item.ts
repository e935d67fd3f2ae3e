// One entry of a row's menu (`RowMenu.svelte`). A plain module, so the code that builds a menu's
// items can be unit-tested without compiling a component.
export interface MenuItem {
  label: string;
  onselect: () => void;
  disabled?: boolean;
  /** Draws a separator above this item. */
  separated?: boolean;
}
