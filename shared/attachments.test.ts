import { describe, expect, it } from 'vitest';
import { attachmentOf, notShownLine, servedAttachment } from './attachments';

describe('attachments by their announced type (docs/product.md: Attachments)', () => {
  it('shows pictures, recordings and videos of the allowed types inline', () => {
    expect(attachmentOf('image/jpeg')).toEqual({ show: 'inline', kind: 'photo', type: 'image/jpeg' });
    expect(attachmentOf('IMAGE/PNG; charset=x')).toEqual({ show: 'inline', kind: 'photo', type: 'image/png' });
    expect(attachmentOf('audio/mpeg')).toMatchObject({ show: 'inline', kind: 'audio' });
    expect(attachmentOf('video/mp4')).toMatchObject({ show: 'inline', kind: 'video' });
    expect(servedAttachment('image/gif', 0)).toEqual({ contentType: 'image/gif', contentDisposition: 'inline' });
  });

  it('offers PDF and vCard as downloads named by their type, whatever the announcement adds', () => {
    expect(attachmentOf('application/pdf; name="invoice.exe"')).toEqual({
      show: 'download',
      label: 'PDF',
      extension: 'pdf',
      type: 'application/pdf',
    });
    expect(attachmentOf('text/x-vcard')).toMatchObject({
      show: 'download',
      label: 'vCard',
      extension: 'vcf',
      type: 'text/vcard',
    });
    expect(servedAttachment('text/vcard', 2)).toEqual({
      contentType: 'text/vcard',
      contentDisposition: 'attachment; filename="attachment-3.vcf"',
    });
  });

  it('only lists anything else: programs, pages, scripts and pictures that can carry script', () => {
    for (const type of [
      'application/x-exe',
      'application/x-bat',
      'application/hta',
      'text/html',
      'image/svg+xml',
      'text/javascript',
    ]) {
      expect(attachmentOf(type), type).toEqual({ show: 'listed', type });
      expect(servedAttachment(type, 0), type).toEqual({
        contentType: 'application/octet-stream',
        contentDisposition: 'attachment',
      });
    }
    expect(notShownLine('application/x-exe')).toBe('Attachment not shown (application/x-exe)');
    // What the sender wrote is shown only as a plain type.
    expect(attachmentOf('<b>x</b>/y')).toEqual({ show: 'listed', type: 'unknown type' });
    expect(attachmentOf('')).toEqual({ show: 'listed', type: 'unknown type' });
  });
});
