import { type ClipboardEvent, type DragEvent, useRef, useState } from 'react';

const carriesFiles = (transfer: DataTransfer | null) => Boolean(transfer && Array.from(transfer.types).includes('Files'));

/**
 * Dropping files onto an area (the composer, New message): `dragging` while files are held over it,
 * for the drop hint, and `onFiles` with what was dropped. Text dragged in is left to the field.
 * The count of enters and leaves, since moving over a child leaves its parent.
 */
export function usePictureDrop(onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const end = () => {
    depth.current = 0;
    setDragging(false);
  };
  return {
    dragging,
    dropProps: {
      onDragEnter: (event: DragEvent) => {
        if (!carriesFiles(event.dataTransfer)) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      },
      onDragOver: (event: DragEvent) => {
        if (!carriesFiles(event.dataTransfer)) return;
        // Without this the browser opens the dropped file instead.
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      },
      onDragLeave: (event: DragEvent) => {
        if (!carriesFiles(event.dataTransfer)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop: (event: DragEvent) => {
        if (!carriesFiles(event.dataTransfer)) return;
        event.preventDefault();
        end();
        onFiles(Array.from(event.dataTransfer.files));
      },
    },
  };
}

/**
 * The files of a paste (a screenshot, an image copied in another app), taking the paste over when
 * there are any; a paste of text only is left to the field, as it was.
 */
export function pastedFiles(event: ClipboardEvent): File[] {
  const files = Array.from(event.clipboardData?.files ?? []);
  if (files.length > 0) event.preventDefault();
  return files;
}
