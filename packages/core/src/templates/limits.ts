/** The provider's documented limits (docs/templates.md cites each one). */
export const TEMPLATE_LIMITS = {
  nameMax: 512,
  bodyMax: 1024,
  headerTextMax: 60,
  footerMax: 60,
  buttonTextMax: 25,
  buttonsMax: 10,
  urlButtonsMax: 2,
  phoneButtonsMax: 1,
  copyCodeButtonsMax: 1,
  urlMax: 2000,
  phoneNumberMax: 20,
  copyCodeExampleMax: 15,
  headerVariablesMax: 1,
  codeExpirationMinutes: { min: 1, max: 90 },
} as const;

/**
 * "Too many variables for too little text": the provider rejects bodies whose variables
 * outweigh their fixed words but does not publish the formula. We require at least
 * `2n + 1` fixed words for `n` placeholder occurrences, which accepts ordinary sentences
 * ("Hi {{1}}, your order {{2}} has shipped.") and rejects skeletons ("{{1}} {{2}} ok").
 */
export function minFixedWords(placeholderCount: number): number {
  return placeholderCount === 0 ? 0 : 2 * placeholderCount + 1;
}
