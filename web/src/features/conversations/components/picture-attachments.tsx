import { PICTURE_TYPES } from '@shared/constants';
import { ImagePlus, RotateCw, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import type { PictureAttachment, PictureAttachments } from '../api/picture-uploads-api';

/**
 * The paper-clip of the composer and New message: opens the file picker for pictures
 * (PICTURE_TYPES; several at once). While pictures cannot go (`blockedReason`) it stays focusable but
 * does nothing except say why (`onRefused`), so a keyboard or screen-reader user hears the reason too.
 */
export function AttachPicturesButton({
  onFiles,
  blockedReason,
  onRefused,
  disabled,
  className,
}: {
  onFiles: (files: File[]) => void;
  blockedReason?: string | null;
  onRefused?: () => void;
  disabled?: boolean;
  className?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const reasonId = useId();
  const blocked = Boolean(blockedReason);
  return (
    <>
      <button
        type="button"
        aria-label="Attach pictures"
        title={blockedReason ?? 'Attach pictures (JPEG, PNG or GIF)'}
        disabled={disabled}
        aria-disabled={blocked || undefined}
        aria-describedby={blocked ? reasonId : undefined}
        onClick={() => (blocked ? onRefused?.() : input.current?.click())}
        className={cn(
          'inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-border bg-surface text-muted transition-colors',
          'hover:bg-surface-muted hover:text-fg disabled:cursor-not-allowed disabled:opacity-50',
          blocked && 'cursor-not-allowed opacity-50 hover:bg-surface hover:text-muted',
          className,
        )}
      >
        <ImagePlus aria-hidden="true" className="size-5" />
      </button>
      {blocked && (
        <span id={reasonId} hidden>
          {blockedReason}
        </span>
      )}
      <input
        ref={input}
        type="file"
        aria-label="Attach pictures"
        accept={PICTURE_TYPES.join(',')}
        multiple
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Emptied, so that choosing the same file again (after removing it) attaches it again.
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}

/** What a dragged file does here, over the area it will land in (the area is `relative`). */
export function DropHint({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute inset-1 z-10 flex items-center justify-center gap-2 rounded-xl border-2 border-dashed border-primary bg-primary-soft/90 text-sm font-semibold text-primary"
    >
      <ImagePlus className="size-5" />
      Drop pictures to attach
    </div>
  );
}

/**
 * The thumbnails of the attached pictures, in the order they will go: each with its upload's progress,
 * or why it failed and Retry, and Remove; then, naming each file, what could not be attached.
 * The keyboard is not dropped when the button it was on goes: after Remove it moves to the next
 * picture's Remove (or `onEmptied`, the message field), after Retry to that picture's Remove.
 */
export function PictureThumbnails({
  pictures,
  disabled,
  onEmptied,
}: {
  pictures: PictureAttachments;
  disabled?: boolean;
  onEmptied?: () => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  const [refocus, setRefocus] = useState<number | null>(null);
  const count = pictures.attachments.length;
  useEffect(() => {
    if (refocus === null) return;
    setRefocus(null);
    const removes = list.current?.querySelectorAll<HTMLButtonElement>('button[data-remove]');
    const target = removes?.[Math.min(refocus, removes.length - 1)];
    if (target) target.focus();
    else onEmptied?.();
  }, [refocus, onEmptied]);
  const failed = pictures.attachments.filter((a) => a.status === 'failed');
  if (count === 0 && pictures.problems.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      {pictures.attachments.length > 0 && (
        <ul ref={list} aria-label="Attached pictures" className="flex flex-wrap gap-2">
          {pictures.attachments.map((attachment, index) => (
            <Thumbnail
              key={attachment.key}
              attachment={attachment}
              disabled={disabled}
              onRemove={() => {
                pictures.remove(attachment.key);
                setRefocus(index);
              }}
              onRetry={() => {
                pictures.retry(attachment.key);
                setRefocus(index);
              }}
            />
          ))}
        </ul>
      )}
      {failed.length > 0 && (
        <ul role="alert" className="flex flex-col gap-0.5 text-xs font-medium text-danger">
          {failed.map((a) => (
            <li key={a.key}>{`“${a.file.name}” could not be uploaded: ${a.error}`}</li>
          ))}
        </ul>
      )}
      {pictures.problems.length > 0 && (
        <div role="alert" className="flex items-start gap-2 text-xs font-medium text-danger">
          <ul className="flex flex-1 flex-col gap-0.5">
            {pictures.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          <button
            type="button"
            aria-label="Dismiss"
            title="Dismiss"
            onClick={pictures.dismissProblems}
            className="inline-flex size-6 shrink-0 items-center justify-center rounded-md text-muted hover:bg-surface-muted hover:text-fg"
          >
            <X aria-hidden="true" className="size-3.5" />
          </button>
        </div>
      )}
    </div>
  );
}

function Thumbnail({
  attachment,
  disabled,
  onRemove,
  onRetry,
}: {
  attachment: PictureAttachment;
  disabled?: boolean;
  onRemove: () => void;
  onRetry: () => void;
}) {
  const name = attachment.file.name;
  const percent = Math.round(attachment.progress * 100);
  return (
    <li className="relative size-16 shrink-0">
      <img
        src={attachment.previewUrl}
        alt={name}
        className={cn(
          'size-full rounded-lg border object-cover',
          attachment.status === 'failed' ? 'border-danger opacity-60' : 'border-border',
        )}
      />
      {attachment.status === 'uploading' && (
        <div
          role="progressbar"
          aria-label={`Uploading ${name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="absolute inset-x-1.5 bottom-1.5 h-1.5 overflow-hidden rounded-full bg-surface/80"
        >
          <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      )}
      {attachment.status === 'failed' && (
        <button
          type="button"
          aria-label={`Retry ${name}`}
          title={`Retry ${name}`}
          disabled={disabled}
          onClick={onRetry}
          className="absolute inset-x-1 bottom-1 inline-flex items-center justify-center gap-1 rounded-md bg-surface px-1 py-0.5 text-xs font-semibold text-fg shadow-sm hover:bg-surface-muted"
        >
          <RotateCw aria-hidden="true" className="size-3" />
          Retry
        </button>
      )}
      <button
        type="button"
        data-remove
        aria-label={`Remove ${name}`}
        title={`Remove ${name}`}
        disabled={disabled}
        onClick={onRemove}
        className="absolute -top-2 -right-2 inline-flex size-6 items-center justify-center rounded-full border border-border bg-surface text-fg shadow-sm hover:bg-surface-muted disabled:opacity-50"
      >
        <X aria-hidden="true" className="size-3.5" />
      </button>
    </li>
  );
}
