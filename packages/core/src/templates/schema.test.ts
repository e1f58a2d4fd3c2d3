import { describe, expect, it } from 'vitest';
import { componentsSchema } from './schema';

/** The strict shape: a field we do not model is refused by name, never silently dropped. */
const issuesOf = (components: unknown) => {
  const r = componentsSchema.safeParse(components);
  if (r.success) return [];
  return r.error.issues.map((i) => ({ path: i.path.join('.'), code: i.code, keys: 'keys' in i ? i.keys : undefined }));
};

describe('componentsSchema', () => {
  it.each([
    ['a component', [{ type: 'BODY', text: 'Hi there', colour: 'red' }], '0', ['colour']],
    ['an example', [{ type: 'BODY', text: 'Hi {{1}} there', example: { body_text: [['a']], body_txt: [['a']] } }], '0.example', ['body_txt']],
    [
      'a named parameter',
      [{ type: 'BODY', text: 'Hi {{a}} there', example: { body_text_named_params: [{ param_name: 'a', example: 'x', note: 'y' }] } }],
      '0.example.body_text_named_params.0',
      ['note'],
    ],
    ['a button', [{ type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'Go', flow_id: '1', icon: 'DOCUMENT' }] }], '0.buttons.0', ['icon']],
    [
      'a supported app',
      [
        {
          type: 'BUTTONS',
          buttons: [{ type: 'OTP', otp_type: 'ONE_TAP', supported_apps: [{ package_name: 'a.b', signature_hash: 'K8a/AINcGX7', version: 2 }] }],
        },
      ],
      '0.buttons.0.supported_apps.0',
      ['version'],
    ],
    ['a limited-time offer', [{ type: 'LIMITED_TIME_OFFER', limited_time_offer: { text: 'Soon', expires: true } }], '0.limited_time_offer', ['expires']],
  ])('refuses an unknown field on %s, naming it', (_what, components, path, keys) => {
    const issues = issuesOf(components);
    expect(issues).toEqual([{ path, code: 'unrecognized_keys', keys }]);
  });

  it("accepts the provider's lower-case enum spellings and stores them upper case (flow_action lower case)", () => {
    const parsed = componentsSchema.parse([
      { type: 'header', format: 'gif', example: { header_handle: ['4::aW...'] } },
      { type: 'limited_time_offer', limited_time_offer: { text: 'Expiring offer!', has_expiration: true } },
      {
        type: 'buttons',
        buttons: [
          { type: 'otp', otp_type: 'zero_tap' },
          { type: 'voice_call', text: 'Call' },
          { type: 'flow', text: 'Go', flow_id: '1', flow_action: 'DATA_EXCHANGE' },
        ],
      },
    ]);
    expect(parsed).toEqual([
      { type: 'HEADER', format: 'GIF', example: { header_handle: ['4::aW...'] } },
      { type: 'LIMITED_TIME_OFFER', limited_time_offer: { text: 'Expiring offer!', has_expiration: true } },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'OTP', otp_type: 'ZERO_TAP' },
          { type: 'VOICE_CALL', text: 'Call' },
          { type: 'FLOW', text: 'Go', flow_id: '1', flow_action: 'data_exchange' },
        ],
      },
    ]);
  });

  it('refuses enum values the provider does not document', () => {
    expect(issuesOf([{ type: 'CAROUSEL' }]).map((i) => i.path)).toEqual(['0.type']);
    expect(issuesOf([{ type: 'BUTTONS', buttons: [{ type: 'POSTBACK', text: 'x' }] }]).map((i) => i.path)).toEqual(['0.buttons.0.type']);
    expect(issuesOf([{ type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'x', flow_action: 'open' }] }]).map((i) => i.path)).toEqual([
      '0.buttons.0.flow_action',
    ]);
  });
});
