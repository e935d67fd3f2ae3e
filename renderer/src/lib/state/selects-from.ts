// Adding a select from a search hit, a marker, a chapter or a pull quote: main finds the words
// (selects:addFrom); the toast says what went into which list, with Undo taking that select out of
// that list again. The toasts are a live region, so a screen reader hears it too.
import type { SelectSource } from '../../../../preload/contract';
import { app } from './app.svelte';
import type { SelectsState } from './selects.svelte';

/** Adds, then says so (or why not); true when it was added. */
export async function addSelectFrom(selects: SelectsState, jobId: string, from: SelectSource): Promise<boolean> {
  const list = selects.listName;
  const added = await selects.addFrom(jobId, from);
  if (!added) {
    app.notify('danger', 'The select was not added', selects.error ?? undefined);
    return false;
  }
  app.notify('ok', `Added “${added.label}” to ${list}.`, undefined, {
    action: {
      label: 'Undo',
      run: () =>
        void selects.unadd(list, added.id).then((ok) => {
          if (ok) app.notify('ok', `Took “${added.label}” out of ${list}.`);
          else app.notify('danger', 'The select was not taken out', selects.error ?? undefined);
        }),
    },
  });
  return true;
}
