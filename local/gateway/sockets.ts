import type { WebSocket } from 'ws';

/** A connection whose `$connect` is done: API Gateway answers @connections for it. */
export interface OpenSocket {
  ws: WebSocket;
  connectedAt: Date;
  lastActiveAt: Date;
  sourceIp: string;
  userAgent: string;
}

/** A connection whose `$connect` still runs: API Gateway answers @connections with 410 until it is done. */
interface ConnectingSocket {
  connectedAt: Date;
}

/** Sends a text frame from the server (a @connections post): the connection is active now. */
export function post(socket: OpenSocket, data: string) {
  socket.ws.send(data);
  socket.lastActiveAt = new Date();
}

/**
 * The WebSocket API's connections by id: what the socket endpoint opens and closes and the
 * @connections API reads and writes. No HTTP here; connections.ts answers for it.
 */
export function createSockets() {
  const sockets = new Map<string, OpenSocket | ConnectingSocket>();
  /** The open connection of an id; none for one gone or still connecting. */
  const open = (connectionId: string) => {
    const socket = sockets.get(connectionId);
    return socket && 'ws' in socket ? socket : undefined;
  };

  return {
    connecting: (connectionId: string, connectedAt: Date) => {
      sockets.set(connectionId, { connectedAt });
    },
    opened: (connectionId: string, socket: OpenSocket) => {
      sockets.set(connectionId, socket);
    },
    forget: (connectionId: string) => {
      sockets.delete(connectionId);
    },
    /** When the connection was made; none for one the gateway no longer holds. */
    connectedAt: (connectionId: string): Date | undefined => sockets.get(connectionId)?.connectedAt,
    open,
    /** Closes a connection as the server does (1000): false if it is gone. */
    close: (connectionId: string): boolean => {
      const socket = open(connectionId);
      socket?.ws.close(1000, 'Closed by the server');
      return socket !== undefined;
    },
    /** Ends every connection at once (the gateway is stopping). */
    terminateAll: () => {
      for (const socket of sockets.values()) if ('ws' in socket) socket.ws.terminate();
    },
  };
}

export type Sockets = ReturnType<typeof createSockets>;
