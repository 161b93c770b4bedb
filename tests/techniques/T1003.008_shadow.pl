#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Reads the password hashes from Perl.
use strict;
use warnings;
die "run only inside sbxlua's analysis box\n" unless ($ENV{HOME} // "") eq "/home/dana";
if (open(my $f, "<", "/etc/shadow")) { print while <$f>; close $f; }
exit 0;
