import { fillPlaceholders, placeholderNames } from './placeholders';
import type { TemplateComponent } from './schema';

/**
 * Values derived from components, never stored: `variables` are the BODY placeholders a
 * sender fills (in order of first appearance; `1`, `2`... or the NAMED names), and
 * `preview` is header, body and footer joined by blank lines with example values
 * substituted where the template carries them.
 */
const AUTH_BODY = '{{1}} is your verification code.';
const AUTH_SECURITY = 'For your security, do not share this code.';

function bodyOf(components: TemplateComponent[]): TemplateComponent | undefined {
  return components.find((c) => c.type === 'BODY');
}

export function deriveVariables(components: TemplateComponent[], category?: string): string[] {
  if (category === 'AUTHENTICATION') return ['1'];
  return placeholderNames(bodyOf(components)?.text ?? '');
}

function exampleLookup(c: TemplateComponent, kind: 'body' | 'header'): (inner: string) => string | undefined {
  const named = kind === 'body' ? c.example?.body_text_named_params : c.example?.header_text_named_params;
  const positional = kind === 'body' ? c.example?.body_text?.[0] : c.example?.header_text;
  return (inner) => {
    const fromNamed = named?.find((p) => p.param_name === inner)?.example;
    if (fromNamed) return fromNamed;
    const n = Number(inner);
    return Number.isInteger(n) && n >= 1 ? positional?.[n - 1] || undefined : undefined;
  };
}

export function derivePreview(components: TemplateComponent[], category?: string): string {
  const parts: string[] = [];
  if (category === 'AUTHENTICATION') {
    const body = bodyOf(components);
    parts.push(body?.add_security_recommendation ? `${AUTH_BODY} ${AUTH_SECURITY}` : AUTH_BODY);
    const minutes = components.find((c) => c.type === 'FOOTER')?.code_expiration_minutes;
    if (minutes !== undefined) parts.push(`This code expires in ${minutes} minutes.`);
    return parts.join('\n\n');
  }
  const header = components.find((c) => c.type === 'HEADER');
  if (header?.text && (header.format ?? 'TEXT') === 'TEXT') parts.push(fillPlaceholders(header.text, exampleLookup(header, 'header')));
  const body = bodyOf(components);
  if (body?.text) parts.push(fillPlaceholders(body.text, exampleLookup(body, 'body')));
  const footer = components.find((c) => c.type === 'FOOTER');
  if (footer?.text) parts.push(footer.text);
  return parts.join('\n\n');
}
