#!/usr/bin/env python3
"""A slow link for ssh's ProxyCommand: relays stdin/stdout to HOST:PORT on
loopback, holding every chunk DELAY ms in each direction and passing at most
CHUNK bytes at a time (a slow path, not only a late one). SIGUSR1 cuts the
link at once, as a network that goes away does: both ends see it end
mid-stream. Writes its pid to --pid-file. Test use only: loopback targets."""
import argparse
import os
import select
import signal
import socket
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--delay-ms", type=int, default=100)
parser.add_argument("--chunk", type=int, default=4096)
parser.add_argument("--pid-file", required=True)
parser.add_argument("host")
parser.add_argument("port", type=int)
args = parser.parse_args()
if not args.host.startswith("127.") and args.host != "localhost":
    sys.exit("slowlink: loopback only")

with open(args.pid_file, "w") as f:
    f.write(str(os.getpid()))
signal.signal(signal.SIGUSR1, lambda *_: os._exit(0))

sock = socket.create_connection((args.host, args.port), timeout=10)
sock.setblocking(False)
stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
delay = args.delay_ms / 1000.0
# (due time, bytes) queues per direction
up, down = [], []
open_in, open_sock = True, True
while open_in or open_sock or up or down:
    now = time.monotonic()
    waits = [q[0][0] - now for q in (up, down) if q]
    timeout = max(0.0, min(waits)) if waits else 1.0
    readers = ([stdin] if open_in else []) + ([sock] if open_sock else [])
    ready, _, _ = select.select(readers, [], [], timeout)
    if stdin in ready:
        data = os.read(stdin, args.chunk)
        if data:
            up.append((time.monotonic() + delay, data))
        else:
            open_in = False
    if sock in ready:
        try:
            data = sock.recv(args.chunk)
        except BlockingIOError:
            data = None
        if data:
            down.append((time.monotonic() + delay, data))
        elif data is not None:
            open_sock = False
    now = time.monotonic()
    while up and up[0][0] <= now:
        sock.setblocking(True)
        sock.sendall(up.pop(0)[1])
        sock.setblocking(False)
    if not open_in and not up:
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
    while down and down[0][0] <= now:
        data = down.pop(0)[1]
        while data:
            data = data[os.write(stdout, data):]
    if not open_sock and not down:
        break
