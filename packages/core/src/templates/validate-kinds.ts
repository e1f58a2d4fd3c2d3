import { TEMPLATE_LIMITS, TTL_SECONDS } from './limits';
import type { TemplateComponent, TemplateDefinition } from './schema';
import type { Report } from './validate-text';

/**
 * Rules that tie components together for the provider's special template kinds:
 * limited-time offer (LTO page), single-product (SPM page) and multi-product (MPM page).
 */
export function templateKinds(components: TemplateComponent[]) {
  const buttons = components.filter((c) => c.type === 'BUTTONS').flatMap((c) => c.buttons ?? []);
  return {
    limitedTimeOffer: components.some((c) => c.type === 'LIMITED_TIME_OFFER'),
    spm: buttons.some((b) => b.type === 'SPM'),
    mpm: buttons.some((b) => b.type === 'MPM'),
  };
}

/** The body's maximum length for this kind of template. */
export function bodyMax(kinds: ReturnType<typeof templateKinds>): number {
  if (kinds.spm) return TEMPLATE_LIMITS.spmBodyMax;
  if (kinds.limitedTimeOffer) return TEMPLATE_LIMITS.ltoBodyMax;
  return TEMPLATE_LIMITS.bodyMax;
}

export function checkKinds(def: TemplateDefinition, firstOf: Map<string, number>, report: Report): void {
  const kinds = templateKinds(def.components);
  const at = (type: string) => ['components', firstOf.get(type)!];
  const header = firstOf.has('HEADER') ? def.components[firstOf.get('HEADER')!] : undefined;
  if (kinds.limitedTimeOffer) {
    if (def.category !== 'MARKETING') report(at('LIMITED_TIME_OFFER'), 'component_not_allowed', 'Limited-time offers are only for MARKETING templates');
    if (firstOf.has('FOOTER')) report(at('FOOTER'), 'component_not_allowed', 'Limited-time offer templates cannot have a footer');
    if (header && header.format !== 'IMAGE' && header.format !== 'VIDEO') {
      report([...at('HEADER'), 'format'], 'header_format_invalid', 'A limited-time offer header is an IMAGE or a VIDEO');
    }
  }
  if (kinds.spm && header?.format !== 'PRODUCT') {
    report(header ? [...at('HEADER'), 'format'] : ['components'], 'header_format_invalid', 'A single-product (SPM) template needs a PRODUCT header');
  }
  if (!kinds.spm && header?.format === 'PRODUCT') {
    report([...at('HEADER'), 'format'], 'header_format_invalid', 'PRODUCT headers belong to single-product templates (an SPM button)');
  }
  if (kinds.mpm && !header) report(['components'], 'header_format_invalid', 'A multi-product (MPM) template needs a header');
}

/** `message_send_ttl_seconds`: whole seconds within the category's range (time-to-live page). */
export function checkTtl(def: TemplateDefinition, report: Report): void {
  const ttl = def.messageSendTtlSeconds;
  const range = TTL_SECONDS[def.category];
  if (ttl === undefined || ttl === null || !range) return;
  const ok = Number.isInteger(ttl) && ((ttl >= range.min && ttl <= range.max) || (range.minusOne && ttl === -1));
  if (!ok) {
    const minusOne = range.minusOne ? ' (or -1 for 30 days)' : '';
    report(['messageSendTtlSeconds'], 'ttl_invalid', `message_send_ttl_seconds for ${def.category} templates is ${range.min} to ${range.max}${minusOne}`);
  }
}
