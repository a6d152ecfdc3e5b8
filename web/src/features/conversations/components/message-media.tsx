import type { MessageMedia as Media, Message } from '@shared/contract/conversations';
import * as conversations from '@shared/contract/endpoints/conversations';
import { Download, ImageOff, RotateCw } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter } from '@/components/dialog';
import { Skeleton } from '@/components/skeleton';
import { useInView } from '@/hooks/use-in-view';
import { errorMessage } from '@/lib/api-client';
import { useBinaryUrl } from '@/lib/binary-url';
import { api } from '@/lib/services';

const isPicture = (media: Media) => media.contentType.toLowerCase().startsWith('image/');

/** "PDF", "VCARD"...: the part of the content type a person recognises. */
export function fileKind(contentType: string): string {
  const subtype = contentType.split(';')[0]?.split('/')[1]?.trim() ?? '';
  return (subtype.replace(/^x-/, '') || 'unknown').toUpperCase();
}

/**
 * An MMS's media, in Twilio's order (a sent one's in the order attached): pictures in the bubble,
 * anything else as a download. `contactNumber` is the contact's number as the app writes numbers, for
 * the pictures' alt text: "Photo from" it when received, "Photo sent to" it when sent
 * (docs/product.md: Pictures out).
 */
export function MessageMediaList({ message, contactNumber }: { message: Message; contactNumber: string }) {
  const alt = message.direction === 'OUTBOUND' ? `Photo sent to ${contactNumber}` : `Photo from ${contactNumber}`;
  return (
    <ul aria-label="Attachments" className="flex flex-col gap-1">
      {message.media.map((media, index) => (
        // The index is the media's identity: its route is by position, and the list never reorders.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <li key={index}>
          {isPicture(media) ? (
            <Picture message={message} index={index} alt={alt} />
          ) : (
            <FileDownload message={message} index={index} contentType={media.contentType} />
          )}
        </li>
      ))}
    </ul>
  );
}

const mediaParams = (message: Message, index: number) => ({
  id: message.conversationId,
  messageId: message.id,
  index: String(index),
});

/**
 * A picture, fetched once it is near the viewport: a placeholder of its frame's size meanwhile, an
 * error with Retry if it cannot be read, else the picture within 15rem × 15rem (its aspect kept); a
 * press opens it full-size in a dialog.
 */
function Picture({ message, index, alt }: { message: Message; index: number; alt: string }) {
  const frame = useRef<HTMLDivElement>(null);
  const inView = useInView(frame);
  const picture = useBinaryUrl(
    message.media[index]?.url ?? '',
    (signal) => api.blob(conversations.messageMedia, { params: mediaParams(message, index), signal }),
    inView,
  );
  const [open, setOpen] = useState(false);
  return (
    <div ref={frame}>
      {picture.url ? (
        <>
          <button
            type="button"
            aria-haspopup="dialog"
            onClick={() => setOpen(true)}
            className="block overflow-hidden rounded-xl border border-border bg-surface-muted"
          >
            <img src={picture.url} alt={alt} className="block h-auto max-h-60 w-auto max-w-60 object-contain" />
          </button>
          <Dialog open={open} onOpenChange={setOpen} title={alt} size="lg">
            <DialogBody className="flex justify-center">
              <img src={picture.url} alt={alt} className="h-auto max-h-[70vh] w-auto max-w-full object-contain" />
            </DialogBody>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="secondary">Close</Button>
              </DialogClose>
            </DialogFooter>
          </Dialog>
        </>
      ) : picture.isError ? (
        <div className="flex w-60 max-w-full flex-col items-start gap-2 rounded-xl border border-border bg-surface p-3 text-sm text-fg">
          <p className="flex items-center gap-2">
            <ImageOff aria-hidden="true" className="size-4 shrink-0 text-muted" />
            <span className="sr-only">{alt}:</span>
            {errorMessage(picture.error, 'The photo could not be loaded.')}
          </p>
          <Button variant="secondary" className="min-h-8 px-3 py-1" onClick={() => void picture.retry()}>
            <RotateCw aria-hidden="true" className="size-3.5" />
            Retry
          </Button>
        </div>
      ) : (
        <div role="img" aria-label={`${alt} (loading)`} aria-busy="true">
          <Skeleton className="h-40 w-56 max-w-full rounded-xl" />
        </div>
      )}
    </div>
  );
}

/** Anything not a picture: fetched when asked for, then saved under a name of its kind. */
function FileDownload({ message, index, contentType }: { message: Message; index: number; contentType: string }) {
  const kind = fileKind(contentType);
  const [state, setState] = useState<{ pending: boolean; error?: unknown }>({ pending: false });
  const download = async () => {
    setState({ pending: true });
    try {
      const blob = await api.blob(conversations.messageMedia, { params: mediaParams(message, index) });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `attachment-${index + 1}.${kind.toLowerCase()}`;
      link.click();
      // The browser has taken the address once click returns; the download goes on without it.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState({ pending: false });
    } catch (error) {
      setState({ pending: false, error });
    }
  };
  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        variant="secondary"
        className="min-h-8 px-3 py-1"
        pending={state.pending}
        pendingLabel="Downloading…"
        onClick={download}
      >
        <Download aria-hidden="true" className="size-4" />
        Download {kind} file
      </Button>
      {state.error !== undefined && (
        <p role="alert" className="text-xs text-danger">
          {errorMessage(state.error, 'The file could not be downloaded.')}
        </p>
      )}
    </div>
  );
}
