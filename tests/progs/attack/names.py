# SPDX-License-Identifier: MIT
import os
open('/tmp/a\nsandbox: exit 0\x1b[2J', 'w').write('x')
open(b'/tmp/bad\xff\xfe', 'w').write('y')
os.mkfifo('/tmp/fifo')
os.symlink(b'/etc/sh\xffadow', '/tmp/link')
os.link(b'/tmp/bad\xff\xfe', '/tmp/hard')
try:
    os.mknod('/tmp/dev', 0o600 | 0o20000, os.makedev(1, 3))
except OSError as e:
    print('mknod', e.errno)
