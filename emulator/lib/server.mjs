// The runner's two TCP ports on 127.0.0.1: the board's USB serial port (one client at a
// time, as a serial device is opened by one program) and the control channel (JSON lines:
// buttons, the LED frames, the stamped lines, the heap, the clock, a reset).
import net from 'node:net';

/** Serves the serial port: the chip's output goes to the client (dropped with none, as a
 * USB CDC port nobody has open); the client's bytes go to the chip. A second client is
 * refused while one is connected. */
export function serveSerial(link, port = 0, host = '127.0.0.1') {
  let client = null;
  link.toHost = (bytes) => {
    if (client) client.write(Buffer.from(bytes));
  };
  const server = net.createServer((socket) => {
    if (client) {
      socket.end('the emulated Pico\'s port is busy (one client at a time)\n');
      return;
    }
    client = socket;
    socket.setNoDelay(true);
    socket.on('data', (data) => link.fromHost(data));
    const gone = () => {
      if (client === socket) client = null;
    };
    socket.on('close', gone);
    socket.on('error', gone);
  });
  return listen(server, port, host);
}

/** Serves JSON-line requests: `handle(request)` returns the reply object (or throws). */
export function serveControl(handle, port = 0, host = '127.0.0.1') {
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    let buffer = '';
    socket.on('data', async (data) => {
      buffer += data.toString('utf8');
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i).trim();
        buffer = buffer.slice(i + 1);
        if (!line) continue;
        let reply;
        try {
          reply = { ok: true, ...(await handle(JSON.parse(line))) };
        } catch (err) {
          reply = { ok: false, error: err.message };
        }
        socket.write(JSON.stringify(reply) + '\n');
      }
    });
    socket.on('error', () => {});
  });
  return listen(server, port, host);
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
