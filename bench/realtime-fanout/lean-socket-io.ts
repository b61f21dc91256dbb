/**
 * The Socket.IO baseline's viewer on the lean WebSocket client: Engine.IO 4 / Socket.IO 5 packets
 * over the websocket transport, in the order `socket.io-client` sends them — wait for Engine.IO's
 * open packet, connect to the main namespace (`40`), emit `join` with ack id 0
 * (`420["join",{…}]`), become ready on its ack (`430[…]`), answer every ping (`2`) with a pong
 * (`3`), and hand each `comment` event (`42["comment",{…}]`), parsed whole, to the caller. What a
 * viewer sends is encoded once per process (see lean-websocket.ts).
 */
import { clientFrame, type LeanHandlers } from './lean-websocket.ts';

export interface SocketIoWire {
  /** Namespace connect (`40`): sent once Engine.IO's open packet arrived. */
  connect: Buffer;
  /** `420["join",{pageUid,campaignUid}]`: the join event with ack id 0. */
  join: Buffer;
  /** Engine.IO pong (`3`), the answer to the server's ping (`2`). */
  pong: Buffer;
  /** The ack of the join: `430[` (ack id 0, then the recent comments). */
  ackHead: Buffer;
  /** A comment event: `42["comment",`. */
  commentHead: Buffer;
}

export function socketIoPackets(pageUid: string, campaignUid: string): SocketIoWire {
  return {
    connect: clientFrame('40'),
    join: clientFrame(`420${JSON.stringify(['join', { pageUid, campaignUid }])}`),
    pong: clientFrame('3'),
    ackHead: Buffer.from('430['),
    commentHead: Buffer.from('42["comment",'),
  };
}

export interface SocketIoViewer {
  isReady(): boolean;
  becameReady(): void;
  failed(error: Error): void;
  /** The connection ended (once per connection). */
  closed(): void;
  comment(doc: { text?: unknown; time?: unknown } | undefined, receivedAt: number): void;
}

export const startsWith = (data: Buffer, head: Buffer) =>
  data.length >= head.length && data.compare(head, 0, head.length, 0, head.length) === 0;

/** The lean client's handlers for one Socket.IO viewer. */
export function socketIoHandlers(
  wire: SocketIoWire,
  viewer: SocketIoViewer,
  clock: () => number,
): LeanHandlers {
  return {
    open() {
      // Engine.IO speaks first (its open packet).
    },
    message(socket, data) {
      switch (data[0]) {
        case 0x30: // '0' Engine.IO open → connect to the main namespace
          socket.send(wire.connect);
          return;
        case 0x32: // '2' ping
          socket.send(wire.pong);
          return;
        case 0x31: // '1' Engine.IO close (the close handler then reports it)
          socket.close();
          return;
        case 0x34: // '4' Engine.IO message: a Socket.IO packet
          break;
        default:
          return;
      }
      switch (data[1]) {
        case 0x30: // '0' namespace connected → join
          socket.send(wire.join);
          return;
        case 0x33: // '3' ack: ready on the whole ack of the join
          if (!viewer.isReady() && startsWith(data, wire.ackHead) && data[data.length - 1] === 0x5d)
            viewer.becameReady();
          return;
        case 0x32: {
          // '2' event
          if (!startsWith(data, wire.commentHead)) return;
          const receivedAt = clock();
          const event = JSON.parse(data.toString('utf8', 2)) as [
            string,
            { text?: unknown; time?: unknown } | undefined,
          ];
          viewer.comment(event[1], receivedAt);
          return;
        }
        case 0x34: // '4' connect error
          viewer.failed(new Error(`socket.io connect error: ${data.toString('utf8', 2)}`));
          return;
        case 0x31: // '1' disconnected by the server (the close handler then reports it)
          socket.close();
          return;
      }
    },
    close(_socket, reason) {
      if (reason && !viewer.isReady()) viewer.failed(new Error(reason));
      else viewer.closed();
    },
  };
}
