# SPDX-License-Identifier: MIT
# Runs a shell command on a fresh pseudo-terminal (the "caller's terminal"),
# types one line into it once the terminal has shown MARK, and prints
# everything the terminal showed, up to its end (every holder of the
# terminal gone), or 60 s at most.
#   python3 tests/on_pty.py 'command' MARK
# or, as steps, each typed once the terminal has shown its mark after what
# the step before typed (KEYS with Python escapes: '\x03' is Ctrl-C):
#   python3 tests/on_pty.py 'command' MARK1 KEYS1 MARK2 KEYS2 ...
# Typing on what the terminal shows, never after a guessed delay, keeps the
# order of what the program and the typist do the same on a loaded machine.
# Options before the command:
#   --size ROWSxCOLS   the terminal's window size from the start
#   --raw              print the bytes shown as they are (no decoding)
# A step whose KEYS is '@size=ROWSxCOLS:MORE' resizes the window (the
# kernel sends SIGWINCH to the terminal's foreground processes), then types
# MORE.  A step whose KEYS is '@until=MARK:MORE' types MORE, then again each
# 0.2 s, whatever the terminal shows meanwhile, until it shows MARK after
# it (a key that only counts once
# something the program cannot show has happened: it waits on MARK, never
# on a guessed delay).  A step whose KEYS is '@hold=S:MORE' types MORE, then
# reads nothing for S seconds: a terminal slower than the program, whose
# output waits in the kernel and in the relay meanwhile.
import errno
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time


def set_size(fd, spec):
    rows, cols = (int(x) for x in spec.split("x"))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


size, raw = None, False
while sys.argv[1].startswith("--"):
    if sys.argv[1] == "--size":
        size = sys.argv.pop(2)
    elif sys.argv[1] == "--raw":
        raw = True
    sys.argv.pop(1)

pid, fd = pty.fork()
if pid == 0:
    if size:
        set_size(0, size)
    os.execvp("sh", ["sh", "-c", sys.argv[1]])
if len(sys.argv) == 3:
    steps = [(sys.argv[2].encode(), b"typed line\n")]
else:
    steps = [
        (m.encode(), k.encode().decode("unicode_escape").encode("latin-1"))
        for m, k in zip(sys.argv[2::2], sys.argv[3::2])
    ]
out = bytearray()
seen = 0  # a step's mark counts only in what came after the step before
deadline = time.time() + 60
hold = 0  # seconds to read nothing, once (@hold=)
again = None  # (keys, mark): typed again until mark shows after seen
typed = 0.0  # when again's keys were last typed
# where the next look for a mark starts: what was looked at before, less
# a mark's length, is not looked at again (a flood of output stays linear)
look = {}


def shown(mark):
    i = out.find(mark, max(seen, look.get(mark, 0)))
    look[mark] = max(seen, len(out) - len(mark) + 1)
    return i


while time.time() < deadline:
    if again and shown(again[1]) >= 0:
        again = None
    while steps and shown(steps[0][0]) >= 0:
        seen = out.index(steps[0][0], seen) + len(steps[0][0])
        look.clear()
        keys = steps[0][1]
        if keys.startswith(b"@size="):
            spec, _, keys = keys[6:].partition(b":")
            set_size(fd, spec.decode())
        elif keys.startswith(b"@hold="):
            spec, _, keys = keys[6:].partition(b":")
            hold = float(spec)
        elif keys.startswith(b"@until="):
            mark, _, keys = keys[7:].partition(b":")
            again = (keys, mark)
            typed = time.time()
        os.write(fd, keys)
        steps.pop(0)
    if hold:
        time.sleep(hold)
        hold = 0
    if again and time.time() - typed >= 0.2:
        os.write(fd, again[0])
        typed = time.time()
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
if raw:
    sys.stdout.buffer.write(out)
else:
    sys.stdout.write(out.decode(errors="replace"))
