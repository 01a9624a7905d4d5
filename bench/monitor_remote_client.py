#!/usr/bin/env python3
"""Drives `blocktune-cli agent` as a remote client would: hello, then one
monitor stream at INTERVAL_MS for TICKS ticks. Prints how many ticks arrived,
how late each arrived after the agent's own sample time (the "plots lag the
remote clock" figure), and the agent's CPU over the stream.

Usage: monitor_remote_client.py INTERVAL_MS TICKS -- AGENT COMMAND...
"""
import datetime
import json
import os
import subprocess
import sys
import time


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def main():
    interval_ms, ticks = int(sys.argv[1]), int(sys.argv[2])
    command = sys.argv[sys.argv.index("--") + 1:]
    agent = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(o):
        agent.stdin.write((json.dumps(o) + "\n").encode())
        agent.stdin.flush()

    send({"op": "hello", "id": 1, "version": 4})  # the protocol this client speaks (core/remote)
    hello = json.loads(agent.stdout.readline())
    if not hello.get("ok"):
        sys.exit("agent refused hello: %s" % hello.get("error"))
    cpu0, wall0 = cpu_seconds(agent.pid), time.monotonic()
    send({"op": "monitor", "id": 2, "interval_ms": interval_ms, "count": ticks})
    lags, devices, got = [], 0, 0
    while True:
        line = agent.stdout.readline()
        if not line:
            sys.exit("agent ended before the monitor's answer")
        now = datetime.datetime.now(datetime.timezone.utc)
        o = json.loads(line)
        if o.get("event") == "sample":
            got += 1
            sample = o["sample"]
            devices = len(sample["devices"])
            at = datetime.datetime.fromisoformat(sample["time"].replace("Z", "+00:00"))
            lags.append((now - at).total_seconds() * 1000)
        elif o.get("id") == 2:
            break
    cpu1, wall1 = cpu_seconds(agent.pid), time.monotonic()
    agent.stdin.close()
    agent.wait(10)
    lags.sort()
    print("ticks: %d of %d arrived, %d devices each" % (got, ticks, devices))
    print("lag after the agent's sample time: median %.1f ms, p99 %.1f ms, max %.1f ms"
          % (lags[len(lags) // 2], lags[min(len(lags) - 1, int(len(lags) * 0.99))], lags[-1]))
    print("agent CPU: %.2f %% of one core over %.1f s" % ((cpu1 - cpu0) / (wall1 - wall0) * 100, wall1 - wall0))


if __name__ == "__main__":
    main()
