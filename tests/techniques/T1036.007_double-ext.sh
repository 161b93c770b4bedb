#!/bin/sh
# SPDX-License-Identifier: MIT
# A program named like a document: invoice.pdf, then .sh.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d="$HOME/Downloads"
mkdir -p "$d"
printf '#!/bin/sh\nid > /dev/null\n' > "$d/invoice.pdf.sh"
chmod +x "$d/invoice.pdf.sh"
"$d/invoice.pdf.sh"
exit 0
