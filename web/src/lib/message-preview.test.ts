import { describe, expect, it } from 'vitest';
import { messagePreview } from './message-preview';

describe('messagePreview', () => {
  it('says "Photo" for pictures only, by the list\'s mediaCount or a message\'s media, and the text otherwise', () => {
    expect(messagePreview({ body: '', mediaCount: 2 })).toBe('Photo');
    expect(messagePreview({ body: '', media: [{ contentType: 'image/png', url: '/m/0' }] })).toBe('Photo');
    expect(messagePreview({ body: 'See the dent', mediaCount: 1 })).toBe('See the dent');
    expect(messagePreview({ body: 'Hello' })).toBe('Hello');
    expect(messagePreview({ body: '', mediaCount: 0, media: [] })).toBe('');
  });
});
