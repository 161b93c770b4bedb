#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# An HTTP server and client on the box's own loopback.
import http.server
import threading
import urllib.request


class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *a):
        pass


s = http.server.HTTPServer(("127.0.0.1", 0), H)
threading.Thread(target=s.handle_request, daemon=True).start()
print(urllib.request.urlopen("http://127.0.0.1:%d/" % s.server_port, timeout=5).read())
s.server_close()
