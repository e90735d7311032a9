/** The platforms a device registers as: a leaf, so that the console's bundle of the schemas reaches no model code. */
export const platforms = ['android', 'ios', 'web'] as const;
export type Platform = (typeof platforms)[number];
