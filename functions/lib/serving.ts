/**
 * Marks a handler (HTTP, webhook or socket) with the contract it serves, so routes.test.ts can check
 * each route table entry's module serves the contract the entry names. Its own module: a socket
 * handler needs it without what define-handler imports.
 */
export const serving = <C, H extends (...args: never[]) => unknown>(contract: C, handler: H): H & { readonly contract: C } =>
  Object.assign(handler, { contract });
