#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Runs Perl code that only exists base64-encoded: decoded and evaluated by
# the interpreter, no command line shows it.
use strict;
use warnings;
use MIME::Base64;
exit 1 unless ($ENV{HOME} // '') eq '/home/dana';
eval(decode_base64('bXkgJGggPSBgdW5hbWUgLW5gOwo='));
exit 0;
