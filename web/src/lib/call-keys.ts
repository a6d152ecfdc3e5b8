/** Call History's queries, shared by its feature and the realtime cache mapping (web/src/lib/realtime/event-cache.ts). */
export const callKeys = {
  all: ['calls'] as const,
  list: (filters: object) => ['calls', filters] as const,
};
