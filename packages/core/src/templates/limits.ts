/** The provider's documented limits (docs/templates.md cites each one). */
export const TEMPLATE_LIMITS = {
  nameMax: 512,
  bodyMax: 1024,
  /** Limited-time offer templates: body at most 600 characters (LTO page). */
  ltoBodyMax: 600,
  /** Single-product message templates: "card body" at most 160 characters (SPM page). */
  spmBodyMax: 160,
  headerTextMax: 60,
  footerMax: 60,
  buttonTextMax: 25,
  buttonsMax: 10,
  urlButtonsMax: 2,
  phoneButtonsMax: 1,
  copyCodeButtonsMax: 1,
  urlMax: 2000,
  phoneNumberMax: 20,
  /**
   * COPY_CODE example: the coupon page allows 20 characters (its own example,
   * `fLBponPDsqF0KQThzkrf`, is 20); the components page says 15. We take 20 and keep 15 for
   * limited-time-offer templates, whose page says 15 for the offer code.
   */
  copyCodeExampleMax: 20,
  ltoCopyCodeExampleMax: 15,
  ltoTextMax: 16,
  headerVariablesMax: 1,
  autofillTextMax: 25,
  supportedAppsMax: 5,
  packageNameMax: 224,
  signatureHashLength: 11,
  codeExpirationMinutes: { min: 1, max: 90 },
} as const;

/**
 * `message_send_ttl_seconds` ranges by category (time-to-live page). AUTHENTICATION and
 * UTILITY also take -1 (a custom 30 days).
 */
export const TTL_SECONDS: Record<string, { min: number; max: number; minusOne: boolean }> = {
  AUTHENTICATION: { min: 30, max: 900, minusOne: true },
  UTILITY: { min: 30, max: 43_200, minusOne: true },
  MARKETING: { min: 43_200, max: 2_592_000, minusOne: false },
};

/**
 * "Too many variables for too little text": the provider rejects bodies whose variables
 * outweigh their fixed words but does not publish the formula. We require at least
 * `2n + 1` fixed words for `n` placeholder occurrences, which accepts ordinary sentences
 * ("Hi {{1}}, your order {{2}} has shipped.") and rejects skeletons ("{{1}} {{2}} ok").
 */
export function minFixedWords(placeholderCount: number): number {
  return placeholderCount === 0 ? 0 : 2 * placeholderCount + 1;
}
