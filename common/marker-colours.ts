// The colours an editor gives a marker in the review, as the NLEs name them.
export const USER_MARKER_COLOURS = ['Blue', 'Cyan', 'Green', 'Yellow', 'Red', 'Purple'] as const;
export type UserMarkerColour = (typeof USER_MARKER_COLOURS)[number];
