#!/bin/sh
# SPDX-License-Identifier: MIT
# Archives the user's SSH directory with Python's zipfile.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
mkdir -p "$HOME/.ssh"
echo 'ssh-ed25519 AAAA user@host' > "$HOME/.ssh/known_keys"
python3 -c "import zipfile, glob, os; z = zipfile.ZipFile('/tmp/k.zip', 'w'); [z.write(p) for p in glob.glob(os.path.expanduser('~/.ssh/*'))]; z.close()"
rm -f /tmp/k.zip
exit 0
