import { isSupportedTemplateLanguage } from './languages';
import { TEMPLATE_LIMITS } from './limits';
import { TEMPLATE_NAME_RE } from './placeholders';
import { COMPONENT_TYPES, PARAMETER_FORMATS, TEMPLATE_CATEGORIES, type TemplateDefinition, type TemplateIssue } from './schema';
import { checkAuthentication } from './validate-auth';
import { checkButtons } from './validate-buttons';
import { checkFooter, checkHeader, checkLimitedTimeOffer } from './validate-components';
import { checkFields } from './validate-fields';
import { bodyMax, checkKinds, checkTtl, templateKinds } from './validate-kinds';
import { checkBody, type Report } from './validate-text';

/**
 * The one template validator: the submit route, `templates.validate` (live UI feedback)
 * and the provider simulator all call it. Pure; returns every issue at once, in document
 * order, so a form can mark each field. An empty array means the provider's documented
 * rules pass (docs/templates.md lists each rule and its source).
 */
export function validateTemplate(def: TemplateDefinition): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  const report: Report = (path, code, message) => issues.push({ path, code, message });

  if (def.name.trim() === '') report(['name'], 'name_required', 'A template needs a name');
  else {
    if (def.name.length > TEMPLATE_LIMITS.nameMax) report(['name'], 'name_too_long', `Names are at most ${TEMPLATE_LIMITS.nameMax} characters`);
    if (!TEMPLATE_NAME_RE.test(def.name)) report(['name'], 'name_invalid', 'Names use only lowercase letters, digits and underscores');
  }
  if (!isSupportedTemplateLanguage(def.language)) {
    report(['language'], 'language_unsupported', `${JSON.stringify(def.language)} is not a language code the provider supports (e.g. en_US, it)`);
  }
  if (!(TEMPLATE_CATEGORIES as readonly string[]).includes(def.category)) {
    report(['category'], 'category_invalid', `Category must be one of ${TEMPLATE_CATEGORIES.join(', ')}`);
  }
  const format = def.parameterFormat;
  if (!(PARAMETER_FORMATS as readonly string[]).includes(format)) {
    report(['parameterFormat'], 'parameter_format_invalid', `parameterFormat must be ${PARAMETER_FORMATS.join(' or ')}`);
  }
  checkTtl(def, report);

  // Structure: at most one of each component type, exactly one BODY.
  const firstOf = new Map<string, number>();
  def.components.forEach((c, i) => {
    if (firstOf.has(c.type)) report(['components', i, 'type'], 'component_duplicate', `Only one ${c.type} component is allowed`);
    else firstOf.set(c.type, i);
  });
  if (!firstOf.has('BODY')) report(['components'], 'body_missing', 'A template needs exactly one BODY component');
  checkFields(def.components, def.category, report);

  if (def.category === 'AUTHENTICATION') {
    checkAuthentication(def.components, report);
  } else {
    const kinds = templateKinds(def.components);
    const ctx = { category: def.category, parameterFormat: format, limitedTimeOffer: kinds.limitedTimeOffer };
    checkKinds(def, firstOf, report);
    for (const type of COMPONENT_TYPES) {
      const i = firstOf.get(type);
      if (i === undefined) continue;
      const c = def.components[i]!;
      const path = ['components', i];
      if (type === 'HEADER') checkHeader(c, format, def.category, path, report);
      if (type === 'BODY') checkBody(c, format, bodyMax(kinds), path, report);
      if (type === 'FOOTER') checkFooter(c, path, report);
      if (type === 'BUTTONS') checkButtons(c, ctx, path, report);
      if (type === 'LIMITED_TIME_OFFER') checkLimitedTimeOffer(c, path, report);
    }
  }
  // Document order (stable sort): top-level fields, then components by index.
  return issues.sort((a, b) => order(a) - order(b));
}

function order(issue: TemplateIssue): number {
  if (issue.path[0] !== 'components') return -1;
  return typeof issue.path[1] === 'number' ? issue.path[1] : 0;
}

export function isValidTemplate(def: TemplateDefinition): boolean {
  return validateTemplate(def).length === 0;
}
