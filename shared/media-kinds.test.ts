import { describe, expect, it } from 'vitest';
import { mediaKind, mediaSummary } from './media-kinds';

describe('media kinds', () => {
  it('names an item by its content type', () => {
    expect(mediaKind('image/jpeg')).toBe('photo');
    expect(mediaKind('IMAGE/PNG')).toBe('photo');
    expect(mediaKind('video/mp4')).toBe('video');
    expect(mediaKind('audio/amr')).toBe('audio');
    expect(mediaKind('application/pdf; name=invoice.pdf')).toBe('pdf');
    expect(mediaKind('text/vcard')).toBe('file');
    expect(mediaKind('')).toBe('file');
  });

  it('says what was sent: one of a kind, several of a kind, or attachments when they differ', () => {
    expect(mediaSummary(['photo'])).toBe('Photo');
    expect(mediaSummary(['photo', 'photo'])).toBe('2 photos');
    expect(mediaSummary(['pdf'])).toBe('PDF');
    expect(mediaSummary(['pdf', 'pdf'])).toBe('2 PDFs');
    expect(mediaSummary(['file'])).toBe('Attachment');
    expect(mediaSummary(['photo', 'pdf', 'photo'])).toBe('3 attachments');
    expect(mediaSummary(['video'])).toBe('Video');
    expect(mediaSummary([])).toBe('');
  });

  it('takes items of unknown kind, counted only, for pictures as before', () => {
    expect(mediaSummary(undefined, 1)).toBe('Photo');
    expect(mediaSummary(undefined, 3)).toBe('3 photos');
    expect(mediaSummary(undefined, 0)).toBe('');
  });
});
