import { MAX_PICTURE_BYTES, MAX_PICTURES_PER_TEXT, MAX_TEXT_PICTURE_BYTES, type PictureType } from '@shared/constants';
import type { PictureUpload } from '@shared/contract/conversations';
import * as conversations from '@shared/contract/endpoints/conversations';
import { isPictureType } from '@shared/pictures';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { makeObjectUrl, revokeObjectUrl } from '@/lib/object-urls';
import { api } from '@/lib/services';

/** Where to PUT one picture's bytes (docs/product.md: Pictures out). */
export const createPictureUpload = (contentType: PictureType, size: number) =>
  api.call(conversations.createPictureUpload, { body: { contentType, size } }).then((d) => d.upload);

/** A PUT the bucket refused or that never arrived; its message is the sentence the thumbnail shows. */
export class PictureUploadError extends Error {
  override name = 'PictureUploadError';
}

/**
 * PUTs the bytes to the upload URL with the headers it was signed for. XMLHttpRequest rather than
 * fetch: only its `upload.onprogress` reports how much of a request body has gone (fetch has no
 * upload progress). `onProgress` gets the share sent, 0 to 1.
 */
export function putPicture(
  upload: PictureUpload,
  file: Blob,
  onProgress: (share: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', upload.url);
    // The browser ignores the headers it sets itself (Content-Length, Host), as the signature expects.
    for (const [name, value] of Object.entries(upload.headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () =>
      request.status >= 200 && request.status < 300
        ? resolve()
        : reject(new PictureUploadError(`The upload was refused (${request.status}). Try again.`));
    request.onerror = () =>
      reject(new PictureUploadError('The upload did not get through. Check your connection and try again.'));
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    if (signal.aborted) return request.abort();
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

/** Asks for an upload URL, then sends the bytes there: the upload a text can name once this resolves. */
export async function uploadPicture(
  file: File,
  onProgress: (share: number) => void,
  signal: AbortSignal,
): Promise<PictureUpload> {
  // attachProblem keeps other files out; this only tells the compiler.
  if (!isPictureType(file.type)) throw new PictureUploadError('Pictures must be JPEG, PNG or GIF.');
  const upload = await createPictureUpload(file.type, file.size);
  signal.throwIfAborted();
  await putPicture(upload, file, onProgress, signal);
  return upload;
}

/** One picture attached to a draft: its bytes, its thumbnail's object URL and how its upload goes. */
export interface PictureAttachment {
  key: string;
  file: File;
  previewUrl: string;
  status: 'uploading' | 'uploaded' | 'failed';
  /** The share of the bytes sent, 0 to 1. */
  progress: number;
  upload: PictureUpload | null;
  error: string | null;
}

const sizeInMb = MAX_PICTURE_BYTES / (1024 * 1024);

/**
 * An upload this close to its `expiresAt` is uploaded again before a send: the send itself takes a
 * moment to reach the server.
 */
const EXPIRY_MARGIN_MS = 15_000;

/**
 * Why a file cannot be attached, naming it, or null. The rules are the contract's
 * (shared/pictures.ts: isPictureType; MAX_PICTURE_BYTES; MAX_PICTURES_PER_TEXT; MAX_TEXT_PICTURE_BYTES): docs/product.md: Pictures out.
 */
export function attachProblem(file: File, alreadyAttached: number, attachedBytes = 0): string | null {
  const name = `“${file.name || 'The file'}”`;
  if (!isPictureType(file.type)) return `${name} cannot be attached: pictures must be JPEG, PNG or GIF.`;
  if (file.size > MAX_PICTURE_BYTES) return `${name} cannot be attached: a picture can be at most ${sizeInMb} MB.`;
  if (file.size === 0) return `${name} cannot be attached: the file is empty.`;
  if (alreadyAttached >= MAX_PICTURES_PER_TEXT) {
    return `${name} cannot be attached: a text can carry at most ${MAX_PICTURES_PER_TEXT} pictures.`;
  }
  if (attachedBytes + file.size > MAX_TEXT_PICTURE_BYTES) {
    return `${name} cannot be attached: a text's pictures can be at most ${MAX_TEXT_PICTURE_BYTES / (1024 * 1024)} MB together. Send it in another text.`;
  }
  return null;
}

let nextKey = 0;

/**
 * The pictures of one draft (docs/product.md: Pictures out). Each starts uploading as it is attached,
 * so that Send waits for the slowest one only; a failed one keeps its bytes for Retry. Thumbnails are
 * object URLs, revoked when the picture is removed, the draft is sent (`clear`) or the composer goes.
 * `now` is the clock that tells an upload past its `expiresAt` (tests pass their own).
 */
export function usePictureAttachments(now: () => number = Date.now) {
  const [attachments, setAttachments] = useState<PictureAttachment[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  // The latest list, for the callbacks of uploads that end later.
  const current = useRef(attachments);
  current.current = attachments;
  const uploads = useRef(new Map<string, AbortController>());

  const change = useCallback((key: string, update: Partial<PictureAttachment>) => {
    setAttachments((list) => list.map((a) => (a.key === key ? { ...a, ...update } : a)));
  }, []);

  /** Uploads (again) the picture of `key`; resolves with its upload, rejects as the thumbnail says. */
  const start = useCallback(
    (key: string, file: File): Promise<PictureUpload> => {
      uploads.current.get(key)?.abort();
      const controller = new AbortController();
      uploads.current.set(key, controller);
      change(key, { status: 'uploading', progress: 0, upload: null, error: null });
      return uploadPicture(file, (progress) => change(key, { progress }), controller.signal).then(
        (upload) => {
          if (uploads.current.get(key) === controller) uploads.current.delete(key);
          change(key, { status: 'uploaded', progress: 1, upload });
          return upload;
        },
        (error: unknown) => {
          if (uploads.current.get(key) === controller) uploads.current.delete(key);
          if (!controller.signal.aborted) {
            const said = error instanceof PictureUploadError ? error.message : errorMessage(error, 'Try again.');
            change(key, { status: 'failed', error: said });
          }
          throw error;
        },
      );
    },
    [change],
  );

  /** Attaches what fits, uploading each at once; says, naming each, why the others were left out. */
  const add = useCallback(
    (files: Iterable<File>) => {
      const found: string[] = [];
      const added: PictureAttachment[] = [];
      for (const file of files) {
        const attachedBytes = [...current.current, ...added].reduce((sum, a) => sum + a.file.size, 0);
        const problem = attachProblem(file, current.current.length + added.length, attachedBytes);
        if (problem) found.push(problem);
        else {
          nextKey += 1;
          added.push({
            key: `picture-${nextKey}`,
            file,
            previewUrl: makeObjectUrl(file),
            status: 'uploading',
            progress: 0,
            upload: null,
            error: null,
          });
        }
      }
      setProblems(found);
      if (added.length === 0) return;
      current.current = [...current.current, ...added];
      setAttachments(current.current);
      // A failure shows on its thumbnail; nothing else waits for these.
      for (const a of added) start(a.key, a.file).catch(() => {});
    },
    [start],
  );

  const remove = useCallback((key: string) => {
    uploads.current.get(key)?.abort();
    uploads.current.delete(key);
    const gone = current.current.find((a) => a.key === key);
    if (gone) revokeObjectUrl(gone.previewUrl);
    current.current = current.current.filter((a) => a.key !== key);
    setAttachments(current.current);
  }, []);

  const retry = useCallback(
    (key: string) => {
      const attachment = current.current.find((a) => a.key === key);
      if (attachment) start(key, attachment.file).catch(() => {});
    },
    [start],
  );

  /** After a send: the pictures went with the text. */
  const clear = useCallback(() => {
    for (const controller of uploads.current.values()) controller.abort();
    uploads.current.clear();
    for (const a of current.current) revokeObjectUrl(a.previewUrl);
    current.current = [];
    setAttachments([]);
    setProblems([]);
  }, []);

  /**
   * The upload ids to send, in the order attached. An upload past its `expiresAt` is uploaded again
   * first, which its thumbnail shows; if that fails, this rejects and the thumbnail offers Retry.
   */
  const pictureIds = useCallback(async (): Promise<string[]> => {
    const at = now();
    const ready = await Promise.all(
      current.current.map((a) =>
        a.upload && Date.parse(a.upload.expiresAt) - EXPIRY_MARGIN_MS > at ? Promise.resolve(a.upload) : start(a.key, a.file),
      ),
    );
    return ready.map((upload) => upload.id);
  }, [now, start]);

  // Leaving the composer: stop what is still uploading and free the thumbnails.
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      for (const a of current.current) revokeObjectUrl(a.previewUrl);
    };
  }, []);

  return {
    attachments,
    problems,
    add,
    remove,
    retry,
    clear,
    pictureIds,
    /** Some picture is still on its way: Send waits. */
    uploading: attachments.some((a) => a.status === 'uploading'),
    /** Some picture could not be uploaded: Send waits for its Retry or its removal. */
    failed: attachments.some((a) => a.status === 'failed'),
    dismissProblems: () => setProblems([]),
    /** Says why nothing was attached (pictures cannot go here), where the attach problems show. */
    refuse: (reason: string) => setProblems([reason]),
  };
}

export type PictureAttachments = ReturnType<typeof usePictureAttachments>;
