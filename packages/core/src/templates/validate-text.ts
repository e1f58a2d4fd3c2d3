import { TEMPLATE_LIMITS, minFixedWords } from './limits';
import { findPlaceholders, fixedWordCount, isValidPlaceholder, placeholderNames } from './placeholders';
import type { TemplateComponent, TemplateIssue } from './schema';

type Path = (string | number)[];
type Report = (path: Path, code: TemplateIssue['code'], message: string) => void;

// Trailing or leading punctuation does not rescue a dangling variable: "... is {{1}}." still
// ends with the variable as far as the provider's review is concerned.
const LEADING = /^[\s.,;:!?¡¿…"'()\-–—]*\{\{/;
const TRAILING = /\}\}[\s.,;:!?¡¿…"'()\-–—]*$/;

/** Every placeholder is well formed for the template's parameter format. */
export function checkPlaceholderSyntax(text: string, format: string, path: Path, report: Report): boolean {
  let ok = true;
  for (const p of findPlaceholders(text)) {
    if (!isValidPlaceholder(p.inner, format)) {
      ok = false;
      const want = format === 'NAMED' ? '{{snake_case_name}}' : '{{1}}, {{2}}, ...';
      report(path, 'placeholder_invalid', `Placeholder {{${p.inner}}} is not valid for ${format} parameters; use ${want}`);
    }
  }
  // Braces left over once the placeholders are removed ("{1}", "{{1}", "{{{1}}}") are typos
  // the provider would not read as placeholders.
  if (/[{}]/.test(text.replace(/\{\{[^{}]*\}\}/g, ''))) {
    ok = false;
    report(path, 'placeholder_invalid', 'Unbalanced braces: placeholders are written {{...}} with exactly two braces');
  }
  return ok;
}

/** POSITIONAL placeholders must be exactly {{1}}..{{n}}: no gaps, starting at 1. */
function checkSequence(text: string, path: Path, report: Report): void {
  const numbers = placeholderNames(text).map(Number).sort((a, b) => a - b);
  const expected = numbers.map((_, i) => i + 1);
  if (numbers.some((n, i) => n !== expected[i])) {
    report(path, 'placeholder_sequence', `Placeholders must be numbered {{1}} to {{${numbers.length}}} without gaps; found ${numbers.map((n) => `{{${n}}}`).join(', ')}`);
  }
}

function checkExamples(component: TemplateComponent, text: string, format: string, path: Path, report: Report): void {
  const names = placeholderNames(text);
  if (names.length === 0) return;
  if (format === 'NAMED') {
    const params = component.example?.body_text_named_params;
    if (!params || params.length === 0) {
      report([...path, 'example', 'body_text_named_params'], 'example_missing', `Add an example value for each of ${names.map((n) => `{{${n}}}`).join(', ')}`);
      return;
    }
    const given = params.map((p) => p.param_name);
    const missing = names.filter((n) => !given.includes(n));
    const extra = given.filter((n) => !names.includes(n));
    if (missing.length || extra.length || params.some((p) => p.example.trim() === '')) {
      report([...path, 'example', 'body_text_named_params'], 'example_mismatch', `Examples must name exactly ${names.join(', ')}, each with a non-empty value`);
    }
    return;
  }
  const rows = component.example?.body_text;
  if (!rows || rows.length === 0 || !rows[0]) {
    report([...path, 'example', 'body_text'], 'example_missing', `Add example values for the ${names.length} placeholder(s)`);
    return;
  }
  const row = rows[0];
  if (row.length !== names.length || row.some((v) => v.trim() === '')) {
    report([...path, 'example', 'body_text'], 'example_mismatch', `Expected ${names.length} non-empty example value(s), got ${row.length}`);
  }
}

/** BODY rules: length, placeholder syntax, sequence, adjacency, dangling, ratio, examples. */
export function checkBody(component: TemplateComponent, format: string, path: Path, report: Report): void {
  const text = component.text ?? '';
  if (text.trim() === '') {
    report([...path, 'text'], 'text_required', 'The body needs text');
    return;
  }
  if (text.length > TEMPLATE_LIMITS.bodyMax) {
    report([...path, 'text'], 'text_too_long', `Body text is ${text.length} characters; the maximum is ${TEMPLATE_LIMITS.bodyMax}`);
  }
  const wellFormed = checkPlaceholderSyntax(text, format, [...path, 'text'], report);
  const occurrences = findPlaceholders(text).length;
  if (occurrences === 0) return;
  if (wellFormed && format !== 'NAMED') checkSequence(text, [...path, 'text'], report);
  if (/\}\}\s*\{\{/.test(text)) {
    report([...path, 'text'], 'placeholder_adjacent', 'Two placeholders are next to each other; put words between them');
  }
  if (LEADING.test(text) || TRAILING.test(text)) {
    report([...path, 'text'], 'placeholder_dangling', 'The body cannot start or end with a placeholder; add text before and after');
  }
  const words = fixedWordCount(text);
  if (words < minFixedWords(occurrences)) {
    report([...path, 'text'], 'too_many_variables', `${occurrences} placeholder(s) need at least ${minFixedWords(occurrences)} words of fixed text; found ${words}`);
  }
  if (wellFormed) checkExamples(component, text, format, path, report);
}
