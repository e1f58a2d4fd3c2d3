import { TEMPLATE_LIMITS } from './limits';
import { findPlaceholders, fixedText, placeholderNames } from './placeholders';
import { HEADER_FORMATS, MEDIA_HEADER_FORMATS, type TemplateComponent } from './schema';
import { checkExampleValue, checkPlaceholderSyntax, type Path, type Report } from './validate-text';

/**
 * "Markdown special characters are not supported in this component" (components page, text
 * header). The page names no set; we refuse WhatsApp's formatting markers: * _ ~ and `
 * (bold, italic, strikethrough, monospace). Placeholders are removed first, so the
 * underscores of `{{sale_start_date}}` do not count.
 */
const MARKDOWN = /[*_~`]/;

function checkLength(text: string, max: number, what: string, path: Path, report: Report): void {
  if (text.length > max) report(path, 'text_too_long', `${what} is ${text.length} characters; the maximum is ${max}`);
}

function checkHeaderExample(c: TemplateComponent, name: string, format: string, path: Path, report: Report): void {
  if (format === 'NAMED') {
    const params = c.example?.header_text_named_params ?? [];
    const hit = params.findIndex((p) => p.param_name === name && p.example.trim() !== '');
    if (hit < 0) return report([...path, 'example'], 'header_example_missing', 'Add one example value for the header placeholder');
    return checkExampleValue(params[hit]!.example, [...path, 'example', 'header_text_named_params', hit, 'example'], report);
  }
  const values = c.example?.header_text ?? [];
  if (values.length !== 1 || values[0]!.trim() === '')
    return report([...path, 'example'], 'header_example_missing', 'Add one example value for the header placeholder');
  checkExampleValue(values[0]!, [...path, 'example', 'header_text', 0], report);
}

function checkTextHeader(c: TemplateComponent, format: string, path: Path, report: Report): void {
  const text = c.text ?? '';
  if (text.trim() === '') return report([...path, 'text'], 'text_required', 'A TEXT header needs text');
  checkLength(text, TEMPLATE_LIMITS.headerTextMax, 'Header text', [...path, 'text'], report);
  if (/[\r\n]/.test(text)) report([...path, 'text'], 'text_newline', 'Header text cannot contain line breaks');
  if (MARKDOWN.test(fixedText(text))) report([...path, 'text'], 'text_markdown', 'Header text cannot use formatting characters (* _ ~ `)');
  if (!checkPlaceholderSyntax(text, format, [...path, 'text'], report)) return;
  const names = placeholderNames(text);
  if (findPlaceholders(text).length > TEMPLATE_LIMITS.headerVariablesMax) {
    return report([...path, 'text'], 'header_variables', 'A header can hold at most one placeholder');
  }
  if (names.length === 0) return;
  if (format !== 'NAMED' && names[0] !== '1') report([...path, 'text'], 'placeholder_sequence', 'The header placeholder must be {{1}}');
  checkHeaderExample(c, names[0]!, format, path, report);
}

/**
 * Header formats (components, SPM and LTO pages): TEXT; media (IMAGE, VIDEO, GIF, DOCUMENT)
 * with a sample handle; LOCATION (UTILITY or MARKETING, which is every category that may
 * have a header); PRODUCT (single-product templates). GIF is only for the Marketing
 * Messages API, so MARKETING only.
 */
export function checkHeader(c: TemplateComponent, format: string, category: string, path: Path, report: Report): void {
  if (!c.format || !(HEADER_FORMATS as readonly string[]).includes(c.format)) {
    return report([...path, 'format'], 'header_format_invalid', `A header needs a format: one of ${HEADER_FORMATS.join(', ')}`);
  }
  if (c.format === 'GIF' && category !== 'MARKETING') report([...path, 'format'], 'header_format_invalid', 'GIF headers are only for MARKETING templates');
  if (c.format === 'TEXT') return checkTextHeader(c, format, path, report);
  if (c.text !== undefined) report([...path, 'text'], 'field_unknown', `text is only for TEXT headers, not ${c.format}`);
  if ((MEDIA_HEADER_FORMATS as readonly string[]).includes(c.format) && !c.example?.header_handle?.length) {
    report([...path, 'example', 'header_handle'], 'header_example_missing', `A ${c.format} header needs a sample media handle`);
  }
}

export function checkFooter(c: TemplateComponent, path: Path, report: Report): void {
  const text = c.text ?? '';
  if (text.trim() === '') return report([...path, 'text'], 'text_required', 'A footer needs text');
  checkLength(text, TEMPLATE_LIMITS.footerMax, 'Footer text', [...path, 'text'], report);
  if (/[\r\n]/.test(text)) report([...path, 'text'], 'text_newline', 'Footer text cannot contain line breaks');
  if (/[{}]/.test(text)) report([...path, 'text'], 'footer_variables', 'A footer cannot contain placeholders');
}

export function checkLimitedTimeOffer(c: TemplateComponent, path: Path, report: Report): void {
  const text = c.limited_time_offer?.text ?? '';
  const at = [...path, 'limited_time_offer', 'text'];
  if (text.trim() === '') return report(at, 'text_required', 'A limited-time offer needs its offer text');
  checkLength(text, TEMPLATE_LIMITS.ltoTextMax, 'Offer text', at, report);
}
