#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Collects the user's SSH private keys from Perl (the key here is one the
# program wrote itself, standing for the user's).
use strict;
use warnings;
die "run only inside sbxlua's analysis box\n" unless ($ENV{HOME} // "") eq "/home/dana";
my $d = "$ENV{HOME}/.ssh";
mkdir $d, 0700;
if (open(my $w, ">", "$d/id_ed25519")) { print $w "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"; close $w; }
for my $k (glob("$d/id_*")) {
	next if $k =~ /\.pub$/;
	if (open(my $r, "<", $k)) { local $/; my $x = <$r>; close $r; }
}
exit 0;
