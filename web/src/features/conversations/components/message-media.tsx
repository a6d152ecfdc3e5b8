import { type Attachment, attachmentOf, notShownLine } from '@shared/attachments';
import type { MessageMedia as Media, Message } from '@shared/contract/conversations';
import * as conversations from '@shared/contract/endpoints/conversations';
import { Download, FileX, ImageOff, RotateCw } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter } from '@/components/dialog';
import { Skeleton } from '@/components/skeleton';
import { useInView } from '@/hooks/use-in-view';
import { errorMessage } from '@/lib/api-client';
import { useBinaryUrl } from '@/lib/binary-url';
import { makeObjectUrl, revokeObjectUrl } from '@/lib/object-urls';
import { api } from '@/lib/services';

/**
 * An MMS's media, in Twilio's order (a sent one's in the order attached), as shared/attachments.ts
 * says (docs/product.md: Attachments): pictures, recordings and videos of the allowed types in the
 * bubble, PDF and vCard as downloads named by their type, anything else only listed. `contactNumber`
 * is the contact's number as the app writes numbers, for the pictures' alt text: "Photo from" it when
 * received, "Photo sent to" it when sent (docs/product.md: Pictures out).
 */
export function MessageMediaList({ message, contactNumber }: { message: Message; contactNumber: string }) {
  const alt = message.direction === 'OUTBOUND' ? `Photo sent to ${contactNumber}` : `Photo from ${contactNumber}`;
  return (
    <ul aria-label="Attachments" className="flex flex-col gap-1">
      {message.media.map((media, index) => (
        // The index is the media's identity: its route is by position, and the list never reorders.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <li key={index}>
          <MediaItem message={message} index={index} media={media} alt={alt} contactNumber={contactNumber} />
        </li>
      ))}
    </ul>
  );
}

function MediaItem({
  message,
  index,
  media,
  alt,
  contactNumber,
}: {
  message: Message;
  index: number;
  media: Media;
  alt: string;
  contactNumber: string;
}) {
  const attachment: Attachment = attachmentOf(media.contentType);
  if (attachment.show === 'download') {
    return <FileDownload message={message} index={index} label={attachment.label} extension={attachment.extension} />;
  }
  if (attachment.show === 'listed') {
    return (
      <p className="flex items-center gap-2 rounded-xl border border-border bg-surface px-3 py-2 text-sm text-muted">
        <FileX aria-hidden="true" className="size-4 shrink-0" />
        {notShownLine(attachment.type)}
      </p>
    );
  }
  if (attachment.kind === 'photo') return <Picture message={message} index={index} alt={alt} />;
  const from = message.direction === 'OUTBOUND' ? `sent to ${contactNumber}` : `from ${contactNumber}`;
  return (
    <Playable
      message={message}
      index={index}
      kind={attachment.kind}
      label={`${attachment.kind === 'audio' ? 'Audio' : 'Video'} ${from}`}
    />
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

/**
 * A recording or a video of an allowed type: read once it is near the viewport, then played by the
 * browser's own controls (keyboard included); an error with Retry if it cannot be read.
 */
function Playable({ message, index, kind, label }: { message: Message; index: number; kind: 'audio' | 'video'; label: string }) {
  const frame = useRef<HTMLDivElement>(null);
  const inView = useInView(frame);
  const media = useBinaryUrl(
    message.media[index]?.url ?? '',
    (signal) => api.blob(conversations.messageMedia, { params: mediaParams(message, index), signal }),
    inView,
  );
  return (
    <div ref={frame}>
      {media.url ? (
        kind === 'audio' ? (
          // biome-ignore lint/a11y/useMediaCaption: a customer's recording comes without captions
          <audio controls src={media.url} aria-label={label} className="w-60 max-w-full" />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: a customer's video comes without captions
          <video controls src={media.url} aria-label={label} className="block h-auto max-h-60 w-auto max-w-60 rounded-xl" />
        )
      ) : media.isError ? (
        <div className="flex w-60 max-w-full flex-col items-start gap-2 rounded-xl border border-border bg-surface p-3 text-sm text-fg">
          <p>
            <span className="sr-only">{label}:</span>
            {errorMessage(media.error, `The ${kind === 'audio' ? 'recording' : 'video'} could not be loaded.`)}
          </p>
          <Button variant="secondary" className="min-h-8 px-3 py-1" onClick={() => void media.retry()}>
            <RotateCw aria-hidden="true" className="size-3.5" />
            Retry
          </Button>
        </div>
      ) : (
        <div role="img" aria-label={`${label} (loading)`} aria-busy="true">
          <Skeleton className={kind === 'audio' ? 'h-10 w-60 max-w-full rounded-xl' : 'h-40 w-56 max-w-full rounded-xl'} />
        </div>
      )}
    </div>
  );
}

/**
 * A PDF or a vCard: fetched when asked for, then saved as `attachment-<n>.<extension of its type>`,
 * never under a name or extension the sender chose.
 */
function FileDownload({
  message,
  index,
  label,
  extension,
}: {
  message: Message;
  index: number;
  label: string;
  extension: string;
}) {
  const [state, setState] = useState<{ pending: boolean; error?: unknown }>({ pending: false });
  const download = async () => {
    setState({ pending: true });
    try {
      const blob = await api.blob(conversations.messageMedia, { params: mediaParams(message, index) });
      const url = makeObjectUrl(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `attachment-${index + 1}.${extension}`;
      link.click();
      // The browser has taken the address once click returns; the download goes on without it.
      setTimeout(() => revokeObjectUrl(url), 0);
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
        Download {label}
      </Button>
      {state.error !== undefined && (
        <p role="alert" className="text-xs text-danger">
          {errorMessage(state.error, 'The file could not be downloaded.')}
        </p>
      )}
    </div>
  );
}
