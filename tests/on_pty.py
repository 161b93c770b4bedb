# Runs a shell command on a fresh pseudo-terminal (the "caller's terminal"),
# types one line into it (after DELAY seconds), and prints everything the
# terminal showed.
#   python3 tests/on_pty.py 'command' [DELAY]
import os
import pty
import select
import sys
import time

pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", sys.argv[1]])
out = b""
typed_at = time.time() + (float(sys.argv[2]) if len(sys.argv) > 2 else 0)
typed = False
deadline = time.time() + 30
while time.time() < deadline:
    if not typed and time.time() >= typed_at:
        os.write(fd, b"typed line\n")
        typed = True
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    elif os.waitpid(pid, os.WNOHANG)[0]:
        break
sys.stdout.write(out.decode(errors="replace"))
