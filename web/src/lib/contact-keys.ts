/** The contact book's queries, shared by its feature and the realtime cache mapping (web/src/lib/realtime/event-cache.ts). */
export const contactKeys = {
  all: ['contacts'] as const,
};
