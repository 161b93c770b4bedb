#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# A Perl script using its core modules: lists, files, JSON-like output.
use strict;
use warnings;
use List::Util qw(sum max);
use File::Temp qw(tempdir);
my $d = tempdir(CLEANUP => 1);
open(my $f, ">", "$d/n") or die;
print $f "$_\n" for 1 .. 10;
close $f;
open($f, "<", "$d/n") or die;
my @n = map { chomp; $_ } <$f>;
printf "sum=%d max=%d\n", sum(@n), max(@n);
