/**
 * Whether the browser lets the page play sound now. Until a person has interacted with the page, an
 * AudioContext starts suspended ("The AudioContext was not allowed to start"), and the ringtone of an
 * incoming call would be silent (docs/product.md §10.5). The widget asks for a click while it is; any
 * click or key press on the page allows it.
 */
export interface SoundGate {
  blocked(): boolean;
  subscribe(listener: () => void): () => void;
  /** Tries to start sound (call it from a click: a person's gesture is what browsers require). */
  allow(): void;
}

type AudioWindow = Window & { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };

/** Sound is allowed where the page cannot tell (no AudioContext): nothing to ask for. */
const ALLOWED: SoundGate = { blocked: () => false, subscribe: () => () => {}, allow: () => {} };

export function browserSoundGate(win: AudioWindow = window): SoundGate {
  const Context = win.AudioContext ?? win.webkitAudioContext;
  if (!Context) return ALLOWED;
  let context: AudioContext | null = null;
  try {
    context = new Context();
  } catch {
    return ALLOWED;
  }
  const probe = context;
  const listeners = new Set<() => void>();
  let blocked = probe.state === 'suspended';
  const check = () => {
    const now = probe.state === 'suspended';
    if (now === blocked) return;
    blocked = now;
    for (const listener of [...listeners]) listener();
    // Allowed for good (browsers keep it for the page's life): the probe is no longer needed.
    if (!blocked) stopListening();
  };
  probe.addEventListener?.('statechange', check);
  const allow = () => {
    if (probe.state !== 'suspended') return check();
    probe.resume().then(check, check);
  };
  // Whatever the person clicks or types first allows sound, not only the widget's button.
  const gestures = ['pointerdown', 'keydown'] as const;
  const stopListening = () => {
    for (const name of gestures) win.removeEventListener(name, allow, true);
  };
  if (blocked) for (const name of gestures) win.addEventListener(name, allow, true);
  return {
    blocked: () => blocked,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    allow,
  };
}
