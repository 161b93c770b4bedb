#!/bin/sh
# SPDX-License-Identifier: MIT
# Unpacks its second stage, shipped encoded three ways: base64, hex and
# an OpenSSL-encrypted blob.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cd /tmp || exit 1
stage='IyEvYmluL3NoCnVuYW1lIC1hCmlkCg=='
echo "$stage" | base64 -d > .s2
chmod +x .s2
echo 23212f62696e2f73680a686f73746e616d650a | xxd -r -p > .s3
echo 'stage three' | openssl enc -aes-256-cbc -pbkdf2 -pass pass:k3y -out .s4.enc 2>/dev/null
openssl enc -d -aes-256-cbc -pbkdf2 -pass pass:k3y -in .s4.enc -out .s4 2>/dev/null
sh .s2 > /dev/null
sh .s3 > /dev/null
exit 0
