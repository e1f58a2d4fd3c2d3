import { describe, expect, it } from 'vitest';
import { contentColumns } from './message-content';

/** The flat search columns derived from a typed content (values from docs/provider-reference/webhooks examples). */
describe('contentColumns', () => {
  it('text and other non-media kinds: the searchable words go to body', () => {
    expect(contentColumns({ kind: 'text', body: 'Does it come in another color?' }, 'Does it come in another color?')).toEqual({
      body: 'Does it come in another color?',
      caption: null,
      mediaId: null,
      mediaMimeType: null,
      payload: null,
    });
    // messages_location.json
    expect(
      contentColumns(
        {
          kind: 'location',
          latitude: 37.44221496582,
          longitude: -122.16165924072,
          name: 'Philz Coffee',
          address: '101 Forest Ave, Palo Alto, CA 94301',
          url: null,
        },
        'Philz Coffee 101 Forest Ave, Palo Alto, CA 94301',
      ),
    ).toMatchObject({ body: 'Philz Coffee 101 Forest Ave, Palo Alto, CA 94301', caption: null });
  });

  it('media: caption (the normalizer text, else the caption), id and mime type', () => {
    const image = {
      kind: 'media',
      mediaKind: 'image',
      id: '1003383421387256',
      mimeType: 'image/jpeg',
      sha256: null,
      caption: 'Taj Mahal',
      filename: null,
      voice: false,
      animated: false,
      url: null,
    } as const;
    expect(contentColumns(image, null)).toEqual({ body: null, caption: 'Taj Mahal', mediaId: '1003383421387256', mediaMimeType: 'image/jpeg', payload: null });
  });

  it('replies keep the chosen id in payload (messages_interactive_list_reply.json, messages_button_quick_reply.json)', () => {
    expect(
      contentColumns(
        { kind: 'interactive', replyType: 'list_reply', id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days', flow: null },
        'Priority Mail Express',
      ),
    ).toMatchObject({ body: 'Priority Mail Express', payload: { reply: { kind: 'list_reply', id: 'priority_express' } } });
    expect(contentColumns({ kind: 'button', payload: 'Unsubscribe', text: 'Unsubscribe' }, 'Unsubscribe')).toMatchObject({
      payload: { reply: { kind: 'button', id: 'Unsubscribe' } },
    });
  });

  it('no content: nothing', () => {
    expect(contentColumns(null, null)).toEqual({ body: null, caption: null, mediaId: null, mediaMimeType: null, payload: null });
  });
});
