import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { realtime, useRealtimeEvent } from '@/lib/realtime/realtime';
import { settingsKeys } from '@/lib/settings-queries';
import { createSoftphoneController } from '../controller/softphone-controller';
import type { Softphone } from '../device/softphone';

/** How often a hidden tab checks its token (the browser may run it as late as once a minute). */
export const BACKGROUND_TICK_MS = 30_000;

/**
 * The widget's softphone: one controller (controller/softphone-controller.ts) for the widget's life,
 * told what only React hears (the query cache, the realtime events, the page coming back to the
 * foreground), rendered through `useSyncExternalStore`. `tokens` is the store of voice tokens.
 */
export function useSoftphone(create: () => Softphone, tokens?: { forgetIssuedBefore(changedAtMs: number): void }) {
  // The controller lives as long as the widget; each start makes its softphone with the latest `create`.
  const latest = useRef({ create, tokens });
  latest.current = { create, tokens };
  const [controller] = useState(() =>
    createSoftphoneController({
      create: () => latest.current.create(),
      tokens: { forgetIssuedBefore: (changedAtMs) => latest.current.tokens?.forgetIssuedBefore(changedAtMs) },
    }),
  );
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);

  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);

  // A provider connected in Settings, in this tab, makes calling possible. Listening from the start
  // (not from the render that hides the widget) hears a provider connected in between.
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        const { queryKey, state } = event.query;
        if (event.type !== 'updated' || queryKey.length !== 1 || queryKey[0] !== settingsKeys.providers[0]) return;
        if (Array.isArray(state.data) && state.data.length > 0) controller.providersConnected();
      }),
    [queryClient, controller],
  );

  // docs/product.md §4 Voice device: back in the foreground, a device found unregistered registers again.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') controller.foreground();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [controller]);

  // The server rings only members whose phone is ready: this tab says whether its own is, on every
  // change (and the socket repeats it with each check-in); a tab without a phone says nothing
  // (docs/product.md §10.5).
  useEffect(() => realtime.reportPhone(snapshot.registered), [snapshot.registered]);
  useEffect(() => () => realtime.reportPhone(null), []);

  // A hidden tab's timers run about once a minute: each tick renews a token about to end, so the
  // registration never lapses with it (docs/product.md §10.5).
  useEffect(() => {
    let tick: ReturnType<typeof setInterval> | undefined;
    const follow = () => {
      clearInterval(tick);
      tick = undefined;
      if (document.visibilityState !== 'hidden') return;
      controller.background();
      tick = setInterval(() => controller.background(), BACKGROUND_TICK_MS);
    };
    follow();
    document.addEventListener('visibilitychange', follow);
    return () => {
      clearInterval(tick);
      document.removeEventListener('visibilitychange', follow);
    };
  }, [controller]);

  useRealtimeEvent('provider_changed', (event) => controller.providerChanged(event.data));
  useRealtimeEvent('call_answered', (event) => controller.callAnswered(event.data.callSid));
  useRealtimeEvent('call_ended', (event) =>
    controller.callEnded(event.data.callSid, event.data.callStatus, event.data.failureReason),
  );

  const { dial, answer, reject, hangUp, toggleMute, sendDigit, retry, dismissNotice } = controller;
  return { ...snapshot, dial, answer, reject, hangUp, toggleMute, sendDigit, retry, dismissNotice };
}

export type SoftphoneController = ReturnType<typeof useSoftphone>;
