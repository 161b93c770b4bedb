#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Scans a neighbour's ports from Perl.
use strict;
use warnings;
die "run only inside sbxlua's analysis box\n" unless ($ENV{HOME} // "") eq "/home/dana";
use IO::Socket::INET;
for my $p (20 .. 35) {
	my $s = IO::Socket::INET->new(PeerAddr => "10.0.0.7", PeerPort => $p, Timeout => 1);
	close $s if $s;
}
exit 0;
