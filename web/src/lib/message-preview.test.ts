import { describe, expect, it } from 'vitest';
import { messagePreview, previewSender } from './message-preview';

describe('messagePreview', () => {
  it("says what was sent without text, by the list's kinds, its count alone, or a message's media; the text otherwise", () => {
    expect(messagePreview({ body: '', mediaCount: 1, mediaKinds: ['pdf'] })).toBe('PDF');
    expect(messagePreview({ body: '', mediaCount: 2, mediaKinds: ['photo', 'photo'] })).toBe('2 photos');
    expect(messagePreview({ body: '', mediaCount: 1, mediaKinds: ['file'] })).toBe('Attachment');
    // Stored before kinds were kept: pictures, as then.
    expect(messagePreview({ body: '', mediaCount: 2 })).toBe('2 photos');
    expect(messagePreview({ body: '', media: [{ contentType: 'application/pdf' }] })).toBe('PDF');
    expect(messagePreview({ body: '', media: [{ contentType: 'image/png' }] })).toBe('Photo');
    expect(messagePreview({ body: 'See the dent', mediaCount: 1, mediaKinds: ['photo'] })).toBe('See the dent');
    expect(messagePreview({ body: 'Hello' })).toBe('Hello');
    expect(messagePreview({ body: '', mediaCount: 0, media: [] })).toBe('');
  });
});

describe('previewSender', () => {
  it('says "You: " for the reader\'s own text, the first name for a colleague\'s, nothing for an inbound one', () => {
    expect(previewSender({ direction: 'OUTBOUND', sentBy: { id: 'u1', name: 'Ada Lovelace' } }, 'u1')).toBe('You: ');
    expect(previewSender({ direction: 'OUTBOUND', sentBy: { id: 'u2', name: 'Grace Brewster Hopper' } }, 'u1')).toBe('Grace: ');
    expect(previewSender({ direction: 'OUTBOUND', sentBy: { id: 'u2', name: 'Grace' } }, 'u1')).toBe('Grace: ');
    expect(previewSender({ direction: 'OUTBOUND' }, 'u1')).toBe('Sent: ');
    expect(previewSender({ direction: 'INBOUND' }, 'u1')).toBe('');
  });
});
