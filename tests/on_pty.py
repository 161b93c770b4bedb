# Runs a shell command on a fresh pseudo-terminal (the "caller's terminal"),
# types one line into it once the terminal has shown MARK, and prints
# everything the terminal showed, up to its end (every holder of the
# terminal gone), or 60 s at most.
#   python3 tests/on_pty.py 'command' MARK
# Typing on what the terminal shows, never after a guessed delay, keeps the
# order of what the program and the typist do the same on a loaded machine.
import errno
import os
import pty
import select
import sys
import time

pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", sys.argv[1]])
mark = sys.argv[2].encode()
out = b""
typed = False
deadline = time.time() + 60
while time.time() < deadline:
    if not typed and mark in out:
        os.write(fd, b"typed line\n")
        typed = True
    ready, _, _ = select.select([fd], [], [], 0.2)
    if not ready:
        continue
    try:
        data = os.read(fd, 4096)
    except OSError as e:
        if e.errno != errno.EIO:  # EIO: no process holds the terminal
            raise
        break
    if not data:
        break
    out += data
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
