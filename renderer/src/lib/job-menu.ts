// The items of a Queue row's menu, decided from the job alone: what the job allows (`canMove`,
// `canDismiss`, computed in main) picks the items; what choosing one does is the screen's to say,
// because it also moves focus.
import type { JobView, MoveDirection } from '../../../preload/contract.js';
import type { MenuItem } from './menu-item.js';

export interface JobMenuActions {
  /** Selects the job and opens its detail panel. */
  details: () => void;
  move: (direction: MoveDirection) => void;
  dismiss: () => void;
}

export function jobMenuItems(job: Pick<JobView, 'canMove' | 'canDismiss'>, actions: JobMenuActions): MenuItem[] {
  const move = (label: string, direction: MoveDirection, separated = false): MenuItem => ({
    label,
    disabled: !job.canMove,
    separated,
    onselect: () => actions.move(direction),
  });
  const items: MenuItem[] = [
    { label: 'Show details', onselect: actions.details },
    move('Move to top', 'top', true),
    move('Move up', 'up'),
    move('Move down', 'down'),
    move('Move to bottom', 'bottom'),
  ];
  if (job.canDismiss) items.push({ label: 'Remove from list', separated: true, onselect: actions.dismiss });
  return items;
}
