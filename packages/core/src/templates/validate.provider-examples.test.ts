import { describe, expect, it } from 'vitest';
import { componentsSchema } from './schema';
import { canonical, DOC, providerComponentExamples, providerCreationExamples, providerExampleAsPublished, toDefinition } from './testing/provider-examples';
import { validateTemplate } from './validate';

/**
 * The provider's own published creation bodies (docs/provider-reference/templates, sources
 * in docs/provider-reference/SOURCES.md) are accepted whole: every field survives the
 * strict schema unchanged (enum case aside) and the validator finds nothing. These tests
 * do not involve the simulator, so they cannot pass by the simulator agreeing with us.
 */
const examples = [...providerCreationExamples(), ...providerComponentExamples()];

describe('every documented template example is accepted whole', () => {
  it('covers every published file', () => {
    // 18 files, two of them bulk upserts in 3 languages, plus 7 component fragments.
    expect(examples).toHaveLength(18 + 2 * 2 + 7);
  });

  it.each(examples.map((e) => [e.id, e] as const))('%s', (_id, example) => {
    const parsed = componentsSchema.parse(example.body.components);
    expect(canonical(parsed), `${example.source}: no field may be dropped or changed`).toEqual(canonical(example.body.components));
    expect(validateTemplate(toDefinition(example.body)), example.source).toEqual([]);
  });
});

describe('documented examples as published, where the published form is refused', () => {
  it(`one-tap with button-level package_name/signature_hash (${DOC.oneTap}: "only Graph API v20.0 or older")`, () => {
    const issues = validateTemplate(toDefinition(providerExampleAsPublished('authentication_one_tap_autofill.json')));
    expect(issues.map((i) => [i.code, i.path.join('.')])).toEqual([
      ['auth_invalid', 'components.2.buttons.0.package_name'],
      ['auth_invalid', 'components.2.buttons.0.signature_hash'],
      ['auth_invalid', 'components.2.buttons.0.supported_apps'],
    ]);
  });

  it(`the time-to-live page's example sends a MARKETING TTL of "120" (a string, under 43200) (${DOC.ttl})`, () => {
    // Our input takes a number; 120 seconds is below the MARKETING minimum the same page gives.
    const def = toDefinition(providerExampleAsPublished('marketing_seasonal_promotion_text_header_quick_replies.json'));
    expect(validateTemplate({ ...def, messageSendTtlSeconds: 120 }).map((i) => i.code)).toEqual(['ttl_invalid']);
  });
});
