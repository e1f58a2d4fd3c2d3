/**
 * Provider error codes worth a series of their own (the provider's error-codes reference, the
 * ones the governor and the pipeline act on, and the common request errors). Any other code
 * counts as 'other', so a provider inventing codes cannot grow the label set.
 */
const KNOWN_CODES = new Set([
  0, 1, 2, 3, 4, 10, 100, 190, 200, 368, 80007, 130429, 130472, 130497, 131000, 131005, 131008, 131009, 131016, 131021, 131026, 131031, 131042, 131045, 131047,
  131048, 131049, 131050, 131051, 131052, 131053, 131056, 131057, 132000, 132001, 132005, 132007, 132012, 132015, 132016, 132018, 132068, 132069, 133000,
  133004, 133005, 133006, 133008, 133009, 133010, 133015, 133016, 134011, 135000,
]);

export function providerCodeLabel(code: number): string {
  return KNOWN_CODES.has(code) ? String(code) : 'other';
}
