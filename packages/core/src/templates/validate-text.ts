import { minFixedWords } from './limits';
import { findPlaceholders, fixedWordCount, isValidPlaceholder, placeholderNames } from './placeholders';
import type { TemplateComponent, TemplateIssue } from './schema';

export type Path = (string | number)[];
export type Report = (path: Path, code: TemplateIssue['code'], message: string) => void;

/**
 * "The message template cannot start or end with a parameter" (template-review page): the
 * very first or very last token may not be a placeholder. Punctuation is a token: the
 * provider's own approved examples end `... is {{order_number}}.` (overview page), so only
 * whitespace is looked through, at either end.
 */
const LEADING = /^\s*\{\{/;
const TRAILING = /\}\}\s*$/;

/**
 * Example (sample) values: the provider refuses parameter text with a line break, a tab or
 * more than 4 consecutive spaces ("Param text cannot have new-line/tab characters or more
 * than 4 consecutive spaces", error 132018).
 */
const BAD_EXAMPLE = /[\n\r\t]| {5,}/;

export function checkExampleValue(value: string, path: Path, report: Report): void {
  if (BAD_EXAMPLE.test(value)) {
    report(path, 'example_invalid', 'Example values cannot contain line breaks, tabs or more than 4 consecutive spaces');
  }
}

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
  const numbers = placeholderNames(text)
    .map(Number)
    .sort((a, b) => a - b);
  const expected = numbers.map((_, i) => i + 1);
  if (numbers.some((n, i) => n !== expected[i])) {
    report(
      path,
      'placeholder_sequence',
      `Placeholders must be numbered {{1}} to {{${numbers.length}}} without gaps; found ${numbers.map((n) => `{{${n}}}`).join(', ')}`,
    );
  }
}

function checkExamples(component: TemplateComponent, text: string, format: string, path: Path, report: Report): void {
  const names = placeholderNames(text);
  if (names.length === 0) return;
  if (format === 'NAMED') {
    const params = component.example?.body_text_named_params;
    const at = [...path, 'example', 'body_text_named_params'];
    if (!params || params.length === 0) {
      report(at, 'example_missing', `Add an example value for each of ${names.map((n) => `{{${n}}}`).join(', ')}`);
      return;
    }
    const given = params.map((p) => p.param_name);
    const missing = names.filter((n) => !given.includes(n));
    const extra = given.filter((n) => !names.includes(n));
    if (missing.length || extra.length || params.some((p) => p.example.trim() === '')) {
      report(at, 'example_mismatch', `Examples must name exactly ${names.join(', ')}, each with a non-empty value`);
    }
    params.forEach((p, i) => checkExampleValue(p.example, [...at, i, 'example'], report));
    return;
  }
  const rows = component.example?.body_text;
  const at = [...path, 'example', 'body_text'];
  if (!rows || rows.length === 0 || !rows[0]) {
    report(at, 'example_missing', `Add example values for the ${names.length} placeholder(s)`);
    return;
  }
  const row = rows[0];
  if (row.length !== names.length || row.some((v) => v.trim() === '')) {
    report(at, 'example_mismatch', `Expected ${names.length} non-empty example value(s), got ${row.length}`);
  }
  row.forEach((v, i) => checkExampleValue(v, [...at, 0, i], report));
}

/** BODY rules: length, placeholder syntax, sequence, adjacency, dangling, ratio, examples. */
export function checkBody(component: TemplateComponent, format: string, max: number, path: Path, report: Report): void {
  const text = component.text ?? '';
  if (text.trim() === '') {
    report([...path, 'text'], 'text_required', 'The body needs text');
    return;
  }
  if (text.length > max) {
    report([...path, 'text'], 'text_too_long', `Body text is ${text.length} characters; the maximum here is ${max}`);
  }
  const wellFormed = checkPlaceholderSyntax(text, format, [...path, 'text'], report);
  const occurrences = findPlaceholders(text).length;
  if (occurrences === 0) return;
  if (wellFormed && format !== 'NAMED') checkSequence(text, [...path, 'text'], report);
  if (/\}\}\s*\{\{/.test(text)) {
    report([...path, 'text'], 'placeholder_adjacent', 'Two placeholders are next to each other; put words between them');
  }
  if (LEADING.test(text) || TRAILING.test(text)) {
    report([...path, 'text'], 'placeholder_dangling', 'The body cannot start or end with a placeholder; add text (or punctuation) before and after');
  }
  const words = fixedWordCount(text);
  if (words < minFixedWords(occurrences)) {
    report(
      [...path, 'text'],
      'too_many_variables',
      `${occurrences} placeholder(s) need at least ${minFixedWords(occurrences)} words of fixed text; found ${words}`,
    );
  }
  if (wellFormed) checkExamples(component, text, format, path, report);
}
