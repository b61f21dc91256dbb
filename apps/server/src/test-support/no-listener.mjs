// Preloaded (`node --import <this file>`) into a process that must open no listening socket (the
// staff command-line tools): every TCP/IPC listen and UDP bind is reported on standard error and
// makes the process exit with status 99, whatever the code does with the error. Plain JavaScript,
// so it also preloads into the compiled tools, which run without tsx.
import dgram from 'node:dgram';
import { writeSync } from 'node:fs';
import net from 'node:net';

export const LISTENER_OPENED = 'a listening socket was opened';
let opened = false;

function report(what) {
  opened = true;
  writeSync(2, `${LISTENER_OPENED}: ${what}\n`);
}

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function guardedListen(...args) {
  report(`listen(${JSON.stringify(args[0] ?? null)})`);
  return listen.apply(this, args);
};
const bind = dgram.Socket.prototype.bind;
dgram.Socket.prototype.bind = function guardedBind(...args) {
  report(`udp bind(${JSON.stringify(args[0] ?? null)})`);
  return bind.apply(this, args);
};
process.on('exit', () => {
  if (opened) process.exitCode = 99;
});
