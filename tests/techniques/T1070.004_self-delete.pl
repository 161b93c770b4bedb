#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Deletes its own script once it has run.
use strict;
use warnings;
die "run only inside sbxlua's analysis box\n" unless ($ENV{HOME} // "") eq "/home/dana";
print "done\n";
unlink $0;
exit 0;
